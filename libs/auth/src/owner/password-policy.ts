/**
 * The owner's password rules, after OWASP ASVS 5.0 (V6.2): at least 12
 * characters, at most 256, and not easy to guess: a common or breached
 * password, a keyboard walk, a repetition or a word built from the owner's
 * own name are refused. No composition rules (no "one digit, one symbol").
 * The guess estimate is zxcvbn-ts with its common-password and diceware
 * lists shipped in the package, so the check works offline.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;
/** zxcvbn's score 3: about 10^8 guesses or more ("safely unguessable" online, with a lockout). */
const MIN_SCORE = 3;

type Estimator = { check(password: string, userInputs?: string[]): { score: number } };
let estimator: Promise<Estimator> | undefined;

/** Loaded on first use: the lists are large, and most starts never check a password. */
function loadEstimator(): Promise<Estimator> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(([core, common]) => {
    const { ZxcvbnFactory } = (core.default ?? core) as typeof import('@zxcvbn-ts/core');
    const lists = (common.default ?? common) as typeof import('@zxcvbn-ts/language-common');
    return new ZxcvbnFactory({ dictionary: lists.dictionary, graphs: lists.adjacencyGraphs });
  });
  return estimator;
}

/** Why this password is refused, or undefined when it may be used. `context`: the owner's name, username. */
export async function passwordProblem(password: string, context: string[] = []): Promise<string | undefined> {
  const length = [...password].length;
  if (password.trim().length < PASSWORD_MIN_LENGTH) return `must have at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `must have at most ${PASSWORD_MAX_LENGTH} characters`;
  const { score } = (await loadEstimator()).check(password, ['vault', ...context.filter(Boolean)]);
  if (score < MIN_SCORE)
    return 'is too easy to guess (a common password, a pattern, a repetition or your own name); choose a longer passphrase of unrelated words';
  return undefined;
}
