import { describe } from '@jest/globals';
import { describeAccessLogApi } from '../../audit/test/access-log-api.behaviour.js';
import { describeGlobalAccess } from '../../auth/test/global-access.behaviour.js';
import { describeJournalApi } from '../../journal/test/journal-api.behaviour.js';
import { describeMediaApi } from '../../media/test/media-api.behaviour.js';
import { describePlannerApi } from '../../planner/test/planner-api.behaviour.js';
import { describeTargetsApi } from '../../planner/test/targets-api.behaviour.js';
import { describeGuard } from './guard.behaviour.js';

/**
 * Every domain's behaviour over HTTP, composed as each way of running the
 * vault must pass it: the embedded app in the test process, the bundled
 * embedded process, the distributed stack. The vault under test locks an
 * address out for `lockoutSeconds` (VAULT_LOCKOUT_SECONDS).
 */
export function describeVaultApi(baseUrl: () => string, lockoutSeconds = 2) {
  describe('targets', () => describeTargetsApi(baseUrl));
  describe('planner', () => describePlannerApi(baseUrl));
  describe('journal', () => describeJournalApi(baseUrl));
  describe('photos', () => describeMediaApi(baseUrl));
  // The gateway's guard, then the access log it feeds (the order they always ran in).
  describe('guard and audit', () => {
    describeGuard(baseUrl);
    describeAccessLogApi(baseUrl, lockoutSeconds);
  });
  describe('global access', () => describeGlobalAccess(baseUrl));
}
