/**
 * The plugin serving a schema folder with the media library, alone in its process, for
 * bench/uploads.ts (which reads this process's peak RSS):
 *
 *   node dist/bench/upload-server.js <root> <sqlite file> <port> <storage folder> <maxFileBytes>
 */
import Koa from 'koa';
import { contentApi } from '../plugin/index.js';

const [root, database, port, folder, maxFileBytes] = process.argv.slice(2);
const api = await contentApi({ root, database: `sqlite:${database}`, watchPermissions: false, upload: { folder, maxFileBytes: Number(maxFileBytes) } });
const app = new Koa();
app.use(api.routes());
const server = app.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
// Node closes a request not answered within 5 minutes; twenty large images on a busy machine take longer.
server.requestTimeout = 0;
