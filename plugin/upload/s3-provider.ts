/**
 * The `s3` provider: objects in a bucket of any S3-compatible store, through the AWS SDK v3.
 * Written as Strapi v4's `@strapi/provider-upload-aws-s3` writes them, so a database stays
 * servable by both: the row's `provider` is `aws-s3`, the key `<prefix>/<hash><ext>`, the URL
 * `<publicBaseUrl>/<key>` or else the object's URL in the bucket, no `provider_metadata`.
 * An object is streamed in parts (lib-storage's `Upload`: at most `queueSize` parts of
 * `partSize` bytes in memory at once, whatever the file's size); a failed multipart upload is
 * aborted, so no part of it stays in the bucket. The SDK is loaded at the first upload: an app
 * on the `local` provider never pays for it.
 *
 * A replacement's objects are staged: uploaded under `<prefix>/.staging/<random>/<key>`, copied to
 * their key (a copy inside the store: the bytes are not sent again) once the row is written, the
 * staged copy then deleted. S3 has no rename; a copy is what puts an object in place whole.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { ObjectCannedACL, S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { SAFE_KEY, type StagedObject, type StagingProvider, type StoredLocation, type StoredObject } from './provider.js';

export interface S3ProviderOptions {
  readonly bucket: string;
  /** A folder in the bucket for every object: `media` or `site/media` (Strapi's `rootPath`). */
  readonly prefix?: string;
  /** Default `AWS_REGION`, else `us-east-1` (S3-compatible stores mostly ignore it). */
  readonly region?: string;
  /** The store's URL for a store other than AWS: `http://127.0.0.1:9000`, `https://<account>.r2.cloudflarestorage.com`. */
  readonly endpoint?: string;
  /** Address the bucket in the path (`<endpoint>/<bucket>/<key>`) rather than as a host name; most self-hosted stores need it. */
  readonly forcePathStyle?: boolean;
  /** Default: the SDK's chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an instance role). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken?: string };
  /** Where the objects are served from (a CDN, a custom domain): the URL is `<publicBaseUrl>/<key>`. */
  readonly publicBaseUrl?: string;
  /** A canned ACL sent with each object (`public-read`: Strapi's default); none by default, as buckets made since 2023 refuse ACLs. */
  readonly acl?: ObjectCannedACL;
  /** Any other setting of the SDK's client (`requestChecksumCalculation`, `maxAttempts`, …); the options above take precedence. */
  readonly clientConfig?: S3ClientConfig;
}

/** Strapi's name for its S3 provider, kept in `files.provider`. */
export const S3_PROVIDER_NAME = 'aws-s3';

/** Bytes per part of a multipart upload (S3's smallest part) and parts sent at once: what an upload holds in memory. */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_AT_ONCE = 4;
/** A store that does not accept a connection in this long is down; one that sends nothing for the other is stuck. */
const CONNECTION_TIMEOUT_MS = 5_000;
const SOCKET_IDLE_TIMEOUT_MS = 60_000;

/** The folder of staged objects under the prefix: a dot-name, which no key the media library makes starts with. */
const STAGING_FOLDER = '.staging';

/** One path segment of a prefix: what a key may hold, never `.` or `..`. */
const PREFIX_SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9_.-]+$/;

export function createS3Provider(options: S3ProviderOptions): StagingProvider {
  if (!options.bucket) throw new Error('The s3 upload provider needs a bucket');
  const prefix = keyPrefix(options.prefix);
  // Known here, not left to the SDK, because the objects' URLs name it.
  const region = options.region || process.env.AWS_REGION || 'us-east-1';
  const bucketUrl = options.publicBaseUrl ? `${options.publicBaseUrl.replace(/\/+$/, '')}/` : bucketUrlOf(options.bucket, region, options.endpoint, options.forcePathStyle === true);
  let client: Promise<S3Client> | null = null;
  const s3 = () => (client ??= createClient(options, region));
  const keyOf = (object: StoredObject) => {
    if (!SAFE_KEY.test(object.key)) throw new Error(`unsafe storage key ${JSON.stringify(object.key)}`);
    return `${prefix}${object.key}`;
  };
  const location = (key: string): StoredLocation => ({ url: `${bucketUrl}${key}`, providerMetadata: null });
  const put = async (key: string, mime: string, content: Readable): Promise<void> => {
    const { Upload } = await import('@aws-sdk/lib-storage');
    const upload = new Upload({
      client: await s3(),
      params: { Bucket: options.bucket, Key: key, Body: content, ContentType: mime, ...(options.acl ? { ACL: options.acl } : {}) },
      partSize: PART_BYTES,
      queueSize: PARTS_AT_ONCE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } finally {
      // The source is read to its end or, after a failure, released (its file descriptor closed).
      content.destroy();
    }
  };
  const remove = async (key: string): Promise<void> => {
    const { DeleteObjectCommand } = await import('@aws-sdk/client-s3');
    // S3 answers a key that is already gone with a success.
    await (await s3()).send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key }));
  };
  const copy = async (from: string, to: string): Promise<void> => {
    const { CopyObjectCommand } = await import('@aws-sdk/client-s3');
    // The content type is copied with the object (MetadataDirective COPY, the default); an ACL is not.
    const source = `${options.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await (await s3()).send(new CopyObjectCommand({ Bucket: options.bucket, Key: to, CopySource: source, ...(options.acl ? { ACL: options.acl } : {}) }));
  };
  return {
    name: S3_PROVIDER_NAME,
    async upload(object: StoredObject, content: Readable): Promise<StoredLocation> {
      const key = keyOf(object);
      await put(key, object.mime, content);
      return location(key);
    },
    async stage(object: StoredObject, path: string): Promise<StagedObject> {
      const key = keyOf(object);
      const stagingKey = `${prefix}${STAGING_FOLDER}/${randomBytes(8).toString('hex')}/${object.key}`;
      // A failed upload leaves nothing (a multipart upload is aborted), so there is nothing to discard yet.
      await put(stagingKey, object.mime, createReadStream(path));
      return { location: location(key), commit: () => copy(stagingKey, key), discard: () => remove(stagingKey) };
    },
    async delete(object: StoredObject): Promise<void> {
      await remove(keyOf(object));
    },
  };
}

async function createClient(options: S3ProviderOptions, region: string): Promise<S3Client> {
  const { S3Client } = await import('@aws-sdk/client-s3');
  return new S3Client({
    requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS, requestTimeout: SOCKET_IDLE_TIMEOUT_MS },
    ...options.clientConfig,
    region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.forcePathStyle !== undefined ? { forcePathStyle: options.forcePathStyle } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });
}

/** `media/` for `media`, `/media/` or `media/`; '' for none. A segment that could leave the folder or needs escaping is refused. */
export function keyPrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  if (!trimmed) return '';
  const segments = trimmed.split('/');
  const bad = segments.find((segment) => !PREFIX_SEGMENT.test(segment));
  if (bad !== undefined) throw new Error(`The s3 upload provider's prefix ${JSON.stringify(prefix)} has a segment other than letters, digits, "_", "-" and "." (${JSON.stringify(bad)})`);
  return `${segments.join('/')}/`;
}

/**
 * The URL an object of the bucket is read at, up to its key: the form the SDK's upload answers
 * as its `Location` (what Strapi keeps), made here so that it does not depend on the store.
 */
export function bucketUrlOf(bucket: string, region: string, endpoint: string | undefined, pathStyle: boolean): string {
  if (!endpoint) return pathStyle ? `https://s3.${region}.amazonaws.com/${bucket}/` : `https://${bucket}.s3.${region}.amazonaws.com/`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`The s3 upload provider's endpoint ${JSON.stringify(endpoint)} is not a URL (such as http://127.0.0.1:9000)`);
  }
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return pathStyle ? `${base}/${bucket}/` : `${url.protocol}//${bucket}.${url.host}${url.pathname.replace(/\/+$/, '')}/`;
}
