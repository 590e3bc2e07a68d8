/**
 * The `s3` provider's settings, without a store: the key prefix, the URL an object is kept
 * under (Strapi's aws-s3 forms), settings refused at start, and serve's upload environment.
 */
import { expect } from 'chai';
import { uploadFromEnv } from '../../plugin/cli/upload-env.js';
import { bucketUrlOf, createS3Provider, keyPrefix } from '../../plugin/upload/s3-provider.js';
import { runCli } from '../support/run-node.js';

describe('s3 provider settings', function () {
  it('normalizes the prefix to a folder and refuses one that could leave it or needs escaping', function () {
    expect(keyPrefix(undefined)).to.equal('');
    expect(keyPrefix('')).to.equal('');
    expect(keyPrefix('/')).to.equal('');
    expect(keyPrefix('media')).to.equal('media/');
    expect(keyPrefix('/site/media/')).to.equal('site/media/');
    for (const bad of ['../media', 'site/../x', 'a//b', 'with space', 'ü', 'a/./b']) expect(() => keyPrefix(bad), bad).to.throw(/prefix/);
  });

  it("makes the object's URL as the SDK's upload answers it: AWS virtual-hosted, path-style, or on an endpoint", function () {
    expect(bucketUrlOf('media', 'eu-west-3', undefined, false)).to.equal('https://media.s3.eu-west-3.amazonaws.com/');
    expect(bucketUrlOf('media', 'eu-west-3', undefined, true)).to.equal('https://s3.eu-west-3.amazonaws.com/media/');
    expect(bucketUrlOf('media', 'us-east-1', 'http://127.0.0.1:9000/', true)).to.equal('http://127.0.0.1:9000/media/');
    expect(bucketUrlOf('media', 'auto', 'https://storage.example.com', false)).to.equal('https://media.storage.example.com/');
    expect(() => bucketUrlOf('media', 'us-east-1', 'storage.example.com', true)).to.throw(/not a URL/);
  });

  it('is named aws-s3, as Strapi names its provider, and needs a bucket', function () {
    expect(createS3Provider({ bucket: 'media' }).name).to.equal('aws-s3');
    expect(() => createS3Provider({ bucket: '' })).to.throw(/bucket/);
    expect(() => createS3Provider({ bucket: 'media', prefix: '../up' })).to.throw(/prefix/);
  });

  it('refuses a key the media library would never make', async function () {
    const provider = createS3Provider({ bucket: 'media', endpoint: 'http://127.0.0.1:9', forcePathStyle: true });
    let refused: unknown = null;
    await provider.delete({ key: '../escape.txt', mime: 'text/plain' }).catch((error: unknown) => (refused = error));
    expect(String(refused)).to.match(/unsafe storage key/);
  });
});

describe("serve's upload environment", function () {
  it('leaves the defaults without variables, and reads the local folder, the file limit and the pixel budget', function () {
    expect(uploadFromEnv({})).to.equal(undefined);
    expect(uploadFromEnv({ UPLOAD_PROVIDER: 'local', UPLOAD_FOLDER: '/srv/uploads' })).to.deep.equal({ folder: '/srv/uploads' });
    expect(uploadFromEnv({ UPLOAD_MAX_FILE_BYTES: '1048576' })).to.deep.equal({ maxFileBytes: 1048576 });
    expect(uploadFromEnv({ UPLOAD_MAX_IMAGE_PIXELS: '12000000', UPLOAD_FOLDER: '/srv/uploads' })).to.deep.equal({ folder: '/srv/uploads', maxImagePixels: 12_000_000 });
  });

  it('reads the s3 settings', function () {
    const options = uploadFromEnv({
      UPLOAD_PROVIDER: 's3',
      S3_BUCKET: 'media',
      S3_PREFIX: 'site',
      AWS_REGION: 'eu-west-3',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PUBLIC_URL: 'https://cdn.example.com',
      S3_ACL: 'public-read',
    });
    expect(options).to.deep.equal({
      provider: { s3: { bucket: 'media', prefix: 'site', region: 'eu-west-3', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, publicBaseUrl: 'https://cdn.example.com', acl: 'public-read' } },
    });
  });

  it('names the variable that is wrong', function () {
    expect(() => uploadFromEnv({ UPLOAD_PROVIDER: 'gcs' })).to.throw(/UPLOAD_PROVIDER/);
    expect(() => uploadFromEnv({ UPLOAD_PROVIDER: 's3' })).to.throw(/S3_BUCKET/);
    expect(() => uploadFromEnv({ UPLOAD_PROVIDER: 's3', S3_BUCKET: 'media', S3_FORCE_PATH_STYLE: 'yes' })).to.throw(/S3_FORCE_PATH_STYLE/);
    expect(() => uploadFromEnv({ UPLOAD_MAX_FILE_BYTES: '10MB' })).to.throw(/UPLOAD_MAX_FILE_BYTES/);
    expect(() => uploadFromEnv({ UPLOAD_MAX_IMAGE_PIXELS: '-1' })).to.throw(/UPLOAD_MAX_IMAGE_PIXELS/);
  });

  it('makes serve refuse to start, with the usage, on a wrong setting', async function () {
    const result = await runCli(['serve', '--port', '0'], undefined, { ...process.env, UPLOAD_PROVIDER: 's3', S3_BUCKET: '' });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.match(/^content-api serve: UPLOAD_PROVIDER=s3 needs S3_BUCKET\nusage: content-api serve/);
  });
});
