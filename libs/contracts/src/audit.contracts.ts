import { z } from 'zod';
import { IsoTimestamp } from './fields.js';
import { defineEvent, defineRpc } from './rpc.js';

/** Every kind of access attempt the vault records (spec 2.13, 6). */
export const ACCESS_ACTIONS = [
  'login_success',
  'failed_login',
  'logout',
  'rate_limited',
  'account_locked',
  'unauthorized',
  'global_access_enabled',
  'global_access_disabled',
  'self_destruct',
  // The owner's data leaving (an export) or coming back (a restore), successful or refused.
  'export',
  'import',
  // Another app's journal added to the vault (issue 35), successful or refused.
  'import_journal',
  // The second factor (issue 19): a password accepted with a factor still to come, each step of the factor, and its enrolment.
  'password_accepted',
  'second_factor_succeeded',
  'second_factor_failed',
  'recovery_code_used',
  'second_factor_added',
  'second_factor_removed',
  // Re-authentication before a drastic action: done, failed, or asked for (the action refused until it is).
  'reauthenticated',
  'reauthentication_failed',
  'reauthentication_required',
] as const;
export const AccessAction = z.enum(ACCESS_ACTIONS);
export type AccessAction = z.infer<typeof AccessAction>;

export const AccessAttempt = z.object({
  ipAddress: z.string().max(100),
  userAgent: z.string().max(1000).optional(),
  action: AccessAction,
  success: z.boolean(),
  /** How large what the attempt carried was (an import's bytes and counts): its size, never its content. */
  detail: z.string().max(200).optional(),
});
export type AccessAttempt = z.infer<typeof AccessAttempt>;

/** Published by the gateway for every access attempt; audit-svc stores it. */
export const AccessAttempted = defineEvent({ name: 'audit.access', payload: AccessAttempt });

export const AccessLog = AccessAttempt.extend({ id: z.string(), action: z.string(), createdAt: IsoTimestamp });
export type AccessLog = z.infer<typeof AccessLog>;

export const ACCESS_LOG_PAGE_DEFAULT = 500;

const Count = (name: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((value) => value <= max, `${name} must be at most ${max}`)
    .optional();

/** Newest first; the latest 500 unless `limit` (up to 5000) and `offset` say otherwise. */
export const ListAccessLogs = defineRpc({
  pattern: 'audit.logs.list',
  request: z.object({ limit: Count('limit', 5000), offset: Count('offset', 10_000_000) }),
  response: z.array(AccessLog),
});
