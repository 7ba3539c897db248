import type { input, output, ZodType } from 'zod';
import type { JournalCount } from './journal.contracts.js';

/**
 * The one table of the HTTP API: every route the gateway serves, with its
 * method, path, whether it is public (answered without a session), and the
 * contract of its body and answer. It is read by
 * - the web's API client (apps/web/src/lib/api.ts: a call names its route and
 *   gets the body and answer types from here),
 * - the screens table's first reads (apps/web/src/screens/signed-in-screens.ts),
 * - the fuzz test's route list (libs/host/test/fuzz.int-spec.ts: the body
 *   schemas are looked up by name among the contracts' exports),
 * and a test holds the gateway's controllers to it (libs/gateway/src/http-routes.spec.ts).
 *
 * Plain data with no runtime import, so that the web's bundle gets the paths
 * and not zod: a body or an answer is named by the contract export that
 * validates it (`'CreateTargetBody'`), which the compiler checks against the
 * exports of this package, and turns into its type.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The modules whose schemas a route names (not index.ts, which exports this table too). */
type Contracts = typeof import('./auth.contracts.js') &
  typeof import('./second-factor.contracts.js') &
  typeof import('./vault.contracts.js') &
  typeof import('./targets.contracts.js') &
  typeof import('./schedule.contracts.js') &
  typeof import('./missions.contracts.js') &
  typeof import('./studies.contracts.js') &
  typeof import('./balance.contracts.js') &
  typeof import('./journal.contracts.js') &
  typeof import('./media.contracts.js') &
  typeof import('./audit.contracts.js') &
  typeof import('./archive.contracts.js');
/** The name of an exported zod schema of this package. */
export type SchemaName = { [K in keyof Contracts]: Contracts[K] extends ZodType ? K : never }[keyof Contracts];
type SchemaOf<N extends SchemaName> = Contracts[N] extends ZodType ? Contracts[N] : never;

export interface HttpRoute<Body = never, Reply = unknown> {
  readonly method: HttpMethod;
  /** As the gateway declares it: `/api/targets/:id`. */
  readonly path: string;
  /** Answered without a session (the login steps, the system status). */
  readonly public: boolean;
  /** The contract export that validates the body, for the server side and the fuzz. */
  readonly body?: SchemaName;
  /** Type only: what the body is and what a 2xx answer holds. */
  readonly types?: { body: Body; reply: Reply };
}

interface RouteOptions<B extends SchemaName | undefined> {
  body?: B;
  public?: boolean;
}

type BodyOf<B> = B extends SchemaName ? input<SchemaOf<B>> : never;

/**
 * A route whose body is checked by the `body` schema (its input type is the
 * call's); `.answers<T>()` names what a 2xx answer holds and gives the plain
 * entry of the table.
 */
function route<B extends SchemaName | undefined = undefined>(method: HttpMethod, path: string, options: RouteOptions<B> = {}) {
  const declared: HttpRoute<BodyOf<B>> = { method, path, public: options.public ?? false, ...(options.body ? { body: options.body } : {}) };
  return {
    answers<Reply = void>(): HttpRoute<BodyOf<B>, Reply> {
      return declared as HttpRoute<BodyOf<B>, Reply>;
    },
  };
}

/** The answer of a schema: `Answer<'Target'>`. */
type Answer<N extends SchemaName> = output<SchemaOf<N>>;

export const HTTP_ROUTES = {
  // Signing in and the session.
  login: route('POST', '/api/login', { body: 'LoginRequest', public: true }).answers<Answer<'Owner'> | Answer<'PendingSignIn'>>(),
  loginPage: route('GET', '/api/login', { public: true }).answers(),
  logout: route('GET', '/api/logout', { public: true }).answers(),
  loginSecondFactor: route('POST', '/api/login/second-factor', { body: 'SecondFactorCodeRequest', public: true }).answers<Answer<'Owner'>>(),
  loginPasskeyOptions: route('POST', '/api/login/passkey/options', { public: true }).answers<unknown>(),
  loginPasskey: route('POST', '/api/login/passkey', { body: 'PasskeyAnswerRequest', public: true }).answers<Answer<'Owner'>>(),
  currentUser: route('GET', '/api/user').answers<Answer<'CurrentUser'>>(),
  systemStatus: route('GET', '/api/system/status', { public: true }).answers<Answer<'SystemStatus'>>(),
  systemOwner: route('GET', '/api/system/owner', { public: true }).answers<Answer<'PublicOwner'>>(),
  reauthenticate: route('POST', '/api/reauthenticate', { body: 'ReauthenticateRequest' }).answers(),
  reauthenticatePasskeyOptions: route('POST', '/api/reauthenticate/passkey-options').answers<unknown>(),

  // The second factor's management.
  secondFactors: route('GET', '/api/second-factor').answers<Answer<'SecondFactorOverview'>>(),
  startTotp: route('POST', '/api/second-factor/totp', { body: 'StartTotpRequest' }).answers<Answer<'TotpEnrolment'>>(),
  confirmTotp: route('POST', '/api/second-factor/totp/confirm', { body: 'ConfirmTotpRequest' }).answers<Answer<'EnrolledFactor'>>(),
  passkeyRegistrationOptions: route('POST', '/api/second-factor/passkey/options').answers<unknown>(),
  registerPasskey: route('POST', '/api/second-factor/passkey', { body: 'RegisterPasskeyRequest' }).answers<Answer<'EnrolledFactor'>>(),
  renameFactor: route('PATCH', '/api/second-factor/:id', { body: 'RenameFactorRequest' }).answers(),
  removeFactor: route('DELETE', '/api/second-factor/:id', { body: 'RemoveFactorRequest' }).answers<Answer<'SecondFactorOverview'>>(),
  passkeySignIn: route('PUT', '/api/second-factor/passkey-sign-in', { body: 'PasskeySignInRequest' }).answers<Answer<'SecondFactorOverview'>>(),

  // The planner.
  targets: route('GET', '/api/targets').answers<Answer<'Target'>[]>(),
  createTarget: route('POST', '/api/targets', { body: 'CreateTargetBody' }).answers<Answer<'Target'>>(),
  updateTarget: route('PATCH', '/api/targets/:id', { body: 'UpdateTargetBody' }).answers<Answer<'Target'>>(),
  deleteTarget: route('DELETE', '/api/targets/:id').answers(),
  weeklyTemplates: route('GET', '/api/weekly-templates').answers<Answer<'WeeklyTemplate'>[]>(),
  weeklyTemplatesForDay: route('GET', '/api/weekly-templates/:dayOfWeek').answers<Answer<'WeeklyTemplate'>[]>(),
  createWeeklyTemplate: route('POST', '/api/weekly-templates', { body: 'CreateWeeklyTemplateBody' }).answers<Answer<'WeeklyTemplate'>>(),
  updateWeeklyTemplate: route('PATCH', '/api/weekly-templates/:id', { body: 'UpdateWeeklyTemplateBody' }).answers<Answer<'WeeklyTemplate'>>(),
  deleteWeeklyTemplate: route('DELETE', '/api/weekly-templates/:id').answers(),
  schedule: route('GET', '/api/schedule/:date').answers<Answer<'ScheduleItem'>[]>(),
  applyWeeklyTemplate: route('POST', '/api/schedule/apply-weekly-template').answers<Answer<'ScheduleItem'>[]>(),
  completeScheduleItem: route('PATCH', '/api/schedule/:id').answers<Answer<'ScheduleItem'>>(),
  activities: route('GET', '/api/activities').answers<Answer<'Activity'>[]>(),
  createActivity: route('POST', '/api/activities', { body: 'CreateActivityBody' }).answers<Answer<'Activity'>>(),
  deleteActivity: route('DELETE', '/api/activities/:id').answers(),
  studies: route('GET', '/api/studies').answers<Answer<'Study'>[]>(),
  completedStudies: route('GET', '/api/studies/completed').answers<Answer<'Study'>[]>(),
  createStudy: route('POST', '/api/studies', { body: 'CreateStudyBody' }).answers<Answer<'Study'>>(),
  completeStudy: route('PATCH', '/api/studies/:id').answers<Answer<'Study'>>(),
  deleteStudy: route('DELETE', '/api/studies/:id').answers(),
  balance: route('GET', '/api/bonaparte/balance').answers<Answer<'Balance'>>(),
  subtract: route('POST', '/api/bonaparte/subtract', { body: 'SubtractBody' }).answers<Answer<'Balance'>>(),

  // The journal and its photos.
  journal: route('GET', '/api/journal').answers<Answer<'JournalEntry'>[]>(),
  journalCount: route('GET', '/api/journal/count').answers<JournalCount>(),
  createJournalEntry: route('POST', '/api/journal', { body: 'JournalEntryBody' }).answers<Answer<'JournalEntry'>>(),
  updateJournalEntry: route('PATCH', '/api/journal/:id', { body: 'JournalEntryBody' }).answers<Answer<'JournalEntry'>>(),
  deleteJournalEntry: route('DELETE', '/api/journal/:id').answers(),
  photos: route('GET', '/api/photos').answers<Answer<'Photo'>[]>(),
  registerPhoto: route('PUT', '/api/photos', { body: 'RegisterPhotoBody' }).answers<Answer<'Photo'>>(),
  deletePhoto: route('DELETE', '/api/photos/:id').answers(),
  uploadParameters: route('POST', '/api/objects/upload').answers<Answer<'UploadParameters'>>(),
  photoFile: route('GET', '/objects/photos/:id').answers(),

  // The access log and the drastic switches.
  logs: route('GET', '/api/logs').answers<Answer<'AccessLog'>[]>(),
  enableGlobalAccess: route('POST', '/api/settings/global-access').answers(),
  disableGlobalAccess: route('DELETE', '/api/settings/global-access').answers(),
  selfDestruct: route('POST', '/api/settings/self-destruct').answers(),
  exportVault: route('POST', '/api/settings/export', { body: 'ExportRequest' }).answers(),
  restoreVault: route('POST', '/api/settings/restore').answers<Answer<'RestoreSummary'>>(),
} as const;

export type HttpRouteName = keyof typeof HTTP_ROUTES;
