import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'vault:public';

/** A route that answers without a session: health, status, owner profile, login. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
