/**
 * How the owner runs the vault's command line, for the hints the vault prints
 * (the first-run password, a command's usage): `npm run vault --` in a clone
 * of the repository; in a container, what the image or its compose file sets
 * in VAULT_COMMAND (`docker compose run --rm -i vault vault`, say).
 */
export function ownerCommand(): string {
  return process.env.VAULT_COMMAND?.trim() || 'npm run vault --';
}
