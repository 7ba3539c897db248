import type { input, output, ZodType } from 'zod';
import type { RpcContract } from './rpc.js';

/**
 * The one table of the HTTP API: every route the gateway serves, with its
 * method, path, whether it is public (answered without a session), and the
 * contract of its body and answer. It is read by
 * - the web's API client (apps/web/src/lib/api.ts: a call names its route and
 *   gets the body and answer types from here),
 * - the screens table's first reads (apps/web/src/screens/signed-in-screens.ts),
 * - the fuzz test's route list (libs/host/test/fuzz.int-spec.ts: the body
 *   schemas are looked up by name among the contracts' exports),
 * - the gateway's forwarded routes (libs/gateway/src/http/forwarded-routes.ts),
 *   which serves every route that names a contract from its line alone,
 * and a test holds the gateway's own controllers to it (libs/gateway/src/http-routes.spec.ts):
 * each serves its line, and each that forwards a request goes to the contract its line names.
 *
 * Plain data with no runtime import, so that the web's bundle gets the paths
 * and not zod: a route names the RPC contract it forwards to (`rpc:
 * 'CreateTarget'`), whose request (less the path's parameters) is its body
 * and whose response its answer; a route the gateway answers itself names
 * its body's schema (`body: 'LoginRequest'`). The compiler checks each name
 * against the exports of this package and turns it into its type.
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
  typeof import('./archive.contracts.js') &
  typeof import('./journal-import.contracts.js');
/** The name of an exported zod schema of this package. */
export type SchemaName = { [K in keyof Contracts]: Contracts[K] extends ZodType ? K : never }[keyof Contracts];
type SchemaOf<N extends SchemaName> = Contracts[N] extends ZodType ? Contracts[N] : never;
/** The name of an exported RPC contract of this package (`'CompleteStudy'`). */
export type RpcName = { [K in keyof Contracts]: Contracts[K] extends RpcContract ? K : never }[keyof Contracts];
type RpcOf<N extends RpcName> = Contracts[N] extends RpcContract ? Contracts[N] : never;

/** The `:name` parts of a path: `'/api/targets/:id'` gives `'id'`. */
type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
/** Methods whose body the gateway reads. */
type WriteMethod = 'POST' | 'PUT' | 'PATCH';

export interface HttpRoute<Body = never, Reply = unknown> {
  readonly method: HttpMethod;
  /** As the gateway declares it: `/api/targets/:id`. */
  readonly path: string;
  /** Answered without a session (the login steps, the system status). */
  readonly public: boolean;
  /**
   * The RPC contract the gateway forwards the route to; the route's body is
   * that contract's request less what the path gives, its answer the
   * contract's response (a test holds each controller to it).
   */
  readonly rpc?: RpcName;
  /**
   * False where the gateway's own controller serves a route that names a
   * contract (the photo's bytes, streamed); every other route with `rpc` is
   * served by the gateway's forwarded routes, from this line alone.
   */
  readonly forward?: false;
  /** The status of a 2xx answer where it is not the method's usual one (a POST answers 201). */
  readonly status?: 200 | 201 | 204;
  /** The contract export that validates the body of a route the gateway answers itself, for the server side and the fuzz. */
  readonly body?: SchemaName;
  /** Type only: what the body is and what a 2xx answer holds. */
  readonly types?: { body: Body; reply: Reply };
}

type RouteOptions<N extends RpcName | undefined, B extends SchemaName | undefined> =
  | { rpc: N; body?: never; public?: boolean; forward?: false; status?: HttpRoute['status'] }
  | { rpc?: never; body?: B; public?: boolean; forward?: never; status?: never };

/** A forwarded write's body: the contract's request less the path's parameters; none for a read or a delete. */
type ForwardedBody<M extends HttpMethod, P extends string, N extends RpcName> = M extends WriteMethod ? Omit<input<RpcOf<N>['request']>, PathParams<P>> : never;
type BodyOf<M extends HttpMethod, P extends string, N, B> = N extends RpcName ? ForwardedBody<M, P, N> : B extends SchemaName ? input<SchemaOf<B>> : never;
// biome-ignore lint/suspicious/noConfusingVoidType: a route that forwards no contract answers nothing unless told, as `.answers()` always did.
type ReplyOf<N> = N extends RpcName ? output<RpcOf<N>['response']> : void;

/**
 * A route of the table. `rpc` names the contract a forwarding route goes to
 * (its body and answer types come from it); `body` names the schema of a
 * route the gateway answers itself. `.answers<T>()` gives the plain entry,
 * answering the contract's response unless told otherwise.
 */
function route<M extends HttpMethod, P extends string, N extends RpcName | undefined = undefined, B extends SchemaName | undefined = undefined>(
  method: M,
  path: P,
  options: RouteOptions<N, B> = {},
) {
  const declared: HttpRoute = {
    method,
    path,
    public: options.public ?? false,
    ...(options.rpc ? { rpc: options.rpc } : {}),
    ...(options.forward === false ? { forward: false } : {}),
    ...(options.status ? { status: options.status } : {}),
    ...(options.body ? { body: options.body } : {}),
  };
  return {
    answers<Reply = ReplyOf<N>>(): HttpRoute<BodyOf<M, P, N, B>, Reply> {
      return declared as HttpRoute<BodyOf<M, P, N, B>, Reply>;
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
  targets: route('GET', '/api/targets', { rpc: 'ListTargets' }).answers(),
  createTarget: route('POST', '/api/targets', { rpc: 'CreateTarget' }).answers(),
  updateTarget: route('PATCH', '/api/targets/:id', { rpc: 'UpdateTarget' }).answers(),
  deleteTarget: route('DELETE', '/api/targets/:id', { rpc: 'DeleteTarget' }).answers(),
  weeklyTemplates: route('GET', '/api/weekly-templates', { rpc: 'ListWeeklyTemplates' }).answers(),
  weeklyTemplatesForDay: route('GET', '/api/weekly-templates/:dayOfWeek', { rpc: 'ListWeeklyTemplatesForDay' }).answers(),
  createWeeklyTemplate: route('POST', '/api/weekly-templates', { rpc: 'CreateWeeklyTemplate' }).answers(),
  updateWeeklyTemplate: route('PATCH', '/api/weekly-templates/:id', { rpc: 'UpdateWeeklyTemplate' }).answers(),
  deleteWeeklyTemplate: route('DELETE', '/api/weekly-templates/:id', { rpc: 'DeleteWeeklyTemplate' }).answers(),
  schedule: route('GET', '/api/schedule/:date', { rpc: 'GetSchedule' }).answers(),
  applyWeeklyTemplate: route('POST', '/api/schedule/apply-weekly-template', { rpc: 'ApplyWeeklyTemplates' }).answers(),
  completeScheduleItem: route('PATCH', '/api/schedule/:id', { rpc: 'CompleteScheduleItem' }).answers(),
  activities: route('GET', '/api/activities', { rpc: 'ListActivities' }).answers(),
  createActivity: route('POST', '/api/activities', { rpc: 'CreateActivity' }).answers(),
  deleteActivity: route('DELETE', '/api/activities/:id', { rpc: 'DeleteActivity' }).answers(),
  studies: route('GET', '/api/studies', { rpc: 'ListStudies' }).answers(),
  completedStudies: route('GET', '/api/studies/completed', { rpc: 'ListCompletedStudies' }).answers(),
  createStudy: route('POST', '/api/studies', { rpc: 'CreateStudy' }).answers(),
  completeStudy: route('PATCH', '/api/studies/:id', { rpc: 'CompleteStudy' }).answers(),
  deleteStudy: route('DELETE', '/api/studies/:id', { rpc: 'DeleteStudy' }).answers(),
  balance: route('GET', '/api/bonaparte/balance', { rpc: 'GetBalance' }).answers(),
  subtract: route('POST', '/api/bonaparte/subtract', { rpc: 'SubtractFromBalance', status: 200 }).answers(),

  // The journal and its photos.
  // The spec's array, newest first; `?limit=&offset=` reads one page of it.
  journal: route('GET', '/api/journal', { rpc: 'ListJournal' }).answers(),
  // The dashboard's count, without downloading every entry.
  journalCount: route('GET', '/api/journal/count', { rpc: 'CountJournal' }).answers(),
  // Words and "phrases" in the body (never in a URL, where logs and histories keep it), the list's answer.
  searchJournal: route('POST', '/api/journal/search', { rpc: 'SearchJournal', status: 200 }).answers(),
  // Entries written on this month and day in earlier years: `?date=YYYY-MM-DD&timeZone=Area/City`, the owner's.
  journalOnThisDay: route('GET', '/api/journal/on-this-day', { rpc: 'OnThisDay' }).answers(),
  createJournalEntry: route('POST', '/api/journal', { rpc: 'CreateJournalEntry' }).answers(),
  updateJournalEntry: route('PATCH', '/api/journal/:id', { rpc: 'UpdateJournalEntry' }).answers(),
  deleteJournalEntry: route('DELETE', '/api/journal/:id', { rpc: 'DeleteJournalEntry' }).answers(),
  // Every stored photo, newest first; `?limit=&offset=` reads one page.
  photos: route('GET', '/api/photos', { rpc: 'ListPhotos' }).answers(),
  // Spec 7: `PUT /api/photos {photoURL}` registers an upload; the answer holds objectPath.
  registerPhoto: route('PUT', '/api/photos', { rpc: 'RegisterPhoto' }).answers(),
  deletePhoto: route('DELETE', '/api/photos/:id', { rpc: 'DeletePhoto' }).answers(),
  uploadParameters: route('POST', '/api/objects/upload').answers<Answer<'UploadParameters'>>(),
  // The photo's bytes, streamed from where media-svc locates them (media/objects.controller.ts).
  photoFile: route('GET', '/objects/photos/:id', { rpc: 'LocatePhoto', forward: false }).answers<Blob>(),

  // The access log and the drastic switches.
  // Newest first: the latest 500 unless `?limit=` (up to 5000) and `?offset=` ask for more.
  logs: route('GET', '/api/logs', { rpc: 'ListAccessLogs' }).answers(),
  enableGlobalAccess: route('POST', '/api/settings/global-access').answers(),
  disableGlobalAccess: route('DELETE', '/api/settings/global-access').answers(),
  selfDestruct: route('POST', '/api/settings/self-destruct').answers(),
  exportVault: route('POST', '/api/settings/export', { body: 'ExportRequest' }).answers(),
  restoreVault: route('POST', '/api/settings/restore').answers<Answer<'RestoreSummary'>>(),
  // Another app's journal (a zip: Day One's JSON export, Markdown or text notes) as the raw body: entries added, never replaced.
  importJournal: route('POST', '/api/settings/import-journal').answers<Answer<'JournalImportSummary'>>(),
  // A progress record for the import about to be sent (its id goes in the import's X-Vault-Import-Progress header), then read while it runs.
  startJournalImportProgress: route('POST', '/api/settings/import-journal/progress').answers<{ id: string }>(),
  journalImportProgress: route('GET', '/api/settings/import-journal/progress/:id').answers<Answer<'JournalImportProgress'>>(),
} as const;

export type HttpRouteName = keyof typeof HTTP_ROUTES;

/** The header of an import (importJournal) naming the progress record it reports to (startJournalImportProgress made it). */
export const IMPORT_PROGRESS_HEADER = 'x-vault-import-progress';
