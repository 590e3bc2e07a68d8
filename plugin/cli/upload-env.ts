/**
 * serve's upload storage, from the environment: `UPLOAD_PROVIDER=s3` with `S3_BUCKET`, and
 * optionally `S3_PREFIX`, `S3_REGION` (else `AWS_REGION`), `S3_ENDPOINT`, `S3_FORCE_PATH_STYLE`
 * (`true` for most self-hosted stores), `S3_PUBLIC_URL` and `S3_ACL`; the credentials are the
 * SDK's own (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, a profile or an instance role).
 * `UPLOAD_FOLDER` moves the `local` provider's folder; `UPLOAD_MAX_FILE_BYTES` sets the largest
 * file (default 200 MB), `UPLOAD_MAX_IMAGE_PIXELS` the largest image decoded (default 2^25). Never flags: credentials and bucket
 * settings belong with the deployment, not on a command line every user of the machine can read.
 */
import type { ObjectCannedACL } from '@aws-sdk/client-s3';
import type { UploadOptions } from '../upload/options.js';

/** The `upload` option the environment asks for; undefined leaves the defaults. A bad setting throws with the variable's name. */
export function uploadFromEnv(env: NodeJS.ProcessEnv = process.env): UploadOptions | undefined {
  const storage = storageFromEnv(env);
  const maxFileBytes = positiveInteger(env, 'UPLOAD_MAX_FILE_BYTES', 'a number of bytes');
  const maxImagePixels = positiveInteger(env, 'UPLOAD_MAX_IMAGE_PIXELS', 'a number of pixels');
  if (maxFileBytes === undefined && maxImagePixels === undefined) return storage;
  return { ...storage, ...(maxFileBytes !== undefined ? { maxFileBytes } : {}), ...(maxImagePixels !== undefined ? { maxImagePixels } : {}) };
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, what: string): number | undefined {
  const text = env[name];
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} is "${text}": it must be ${what}`);
  return value;
}

function storageFromEnv(env: NodeJS.ProcessEnv): UploadOptions | undefined {
  const provider = env.UPLOAD_PROVIDER || 'local';
  if (provider === 'local') return env.UPLOAD_FOLDER ? { folder: env.UPLOAD_FOLDER } : undefined;
  if (provider !== 's3') throw new Error(`UPLOAD_PROVIDER is "${provider}": it may be local or s3`);
  if (!env.S3_BUCKET) throw new Error('UPLOAD_PROVIDER=s3 needs S3_BUCKET');
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  if (pathStyle !== undefined && pathStyle !== '' && pathStyle !== 'true' && pathStyle !== 'false') throw new Error(`S3_FORCE_PATH_STYLE is "${pathStyle}": it may be true or false`);
  return {
    provider: {
      s3: {
        bucket: env.S3_BUCKET,
        prefix: env.S3_PREFIX || undefined,
        region: env.S3_REGION || env.AWS_REGION || undefined,
        endpoint: env.S3_ENDPOINT || undefined,
        forcePathStyle: pathStyle ? pathStyle === 'true' : undefined,
        publicBaseUrl: env.S3_PUBLIC_URL || undefined,
        acl: (env.S3_ACL || undefined) as ObjectCannedACL | undefined,
      },
    },
  };
}
