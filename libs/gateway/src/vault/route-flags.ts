import { SetMetadata } from '@nestjs/common';

export const OWNER_ONLY = 'vault:owner-only';
export const SURVIVES_DESTRUCTION = 'vault:survives-destruction';

/** Needs the owner's own session even while global access is on (settings, self-destruct). */
export const OwnerOnly = () => SetMetadata(OWNER_ONLY, true);

/** Still answers after self-destruct (status, and the owner's name for the farewell page). */
export const SurvivesDestruction = () => SetMetadata(SURVIVES_DESTRUCTION, true);
