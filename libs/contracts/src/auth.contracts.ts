import { z } from 'zod';
import { defineRpc } from './rpc.js';
import { Empty } from './fields.js';

/** What the login form posts. Blank after trimming is refused before any check. */
export const LoginRequest = z.object({
  username: z.string({ error: 'is required' }).trim().min(1, 'must not be blank').max(200, 'is too long'),
  password: z
    .string({ error: 'is required' })
    .min(1, 'must not be blank')
    .max(1024, 'is too long')
    .refine((value) => value.trim().length > 0, 'must not be blank'),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const Owner = z.object({
  username: z.string(),
  name: z.string(),
});
export type Owner = z.infer<typeof Owner>;

export const SystemStatus = z.object({ destroyed: z.boolean() });
export type SystemStatus = z.infer<typeof SystemStatus>;

export const VaultState = z.object({ destroyed: z.boolean(), globalAccess: z.boolean() });
export type VaultState = z.infer<typeof VaultState>;

/** How a sign-in held at its second step may be completed: the enrolled kinds, and a recovery code whenever one is left. */
export const SecondFactorMethod = z.enum(['passkey', 'totp', 'recovery']);
export type SecondFactorMethod = z.infer<typeof SecondFactorMethod>;

/** The right password: the owner, and the second factors that must follow (none enrolled: the sign-in is complete). */
export const PasswordVerdict = Owner.extend({ secondFactor: z.array(SecondFactorMethod) });
export type PasswordVerdict = z.infer<typeof PasswordVerdict>;

const ClientInfo = z.object({ ip: z.string().max(100).optional(), userAgent: z.string().max(1000).optional() });

export const VerifyOwner = defineRpc({
  pattern: 'auth.owner.verify',
  request: LoginRequest.extend({ client: ClientInfo.optional() }),
  response: PasswordVerdict,
  // argon2id verification takes tens of milliseconds on purpose.
  timeoutMs: 5000,
});

export const GetOwnerProfile = defineRpc({
  pattern: 'auth.owner.profile',
  request: Empty,
  response: Owner,
});

export const GetVaultState = defineRpc({
  pattern: 'auth.vault.state',
  request: Empty,
  response: VaultState,
});
