// The reference (Strapi 4.26.2) as a child process of a recorder: its output kept for the error
// that says why it did not start, waited for until it answers, and stopped. Shared by the
// recorders of test/writes and test/apps (run by hand, never by npm test).

/** `child` with `log()`, all it printed so far, and `exited`, a promise of its exit code. */
export function watchReference(child) {
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  child.exited = new Promise((done) => child.on('exit', (code) => done(code)));
  child.log = () => log;
  return child;
}

/** Polls `url` until `ready(response)`, for up to 180 s; throws with the reference's last output if it exits or never answers. */
export async function waitUntilServing(child, url, ready) {
  const deadline = Date.now() + 180_000;
  let exitCode;
  child.exited.then((code) => (exitCode = code ?? 'signal'));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`the reference exited (${exitCode}):\n${child.log().slice(-4000)}`);
    try {
      if (ready(await fetch(url))) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error(`the reference did not answer within 180 s:\n${child.log().slice(-4000)}`);
}

/** SIGTERM, then at most 10 s for the process to end. */
export async function stopReference(child) {
  child.kill('SIGTERM');
  await Promise.race([child.exited, new Promise((done) => setTimeout(done, 10_000))]);
}

/**
 * Sends one recorded request to the reference at `base` as the replays send it: a JSON body (or
 * `rawBody` as it is), `Bearer token` unless the request says `token: "none"`. A few answers are
 * not JSON at all (the router's 405 is plain text): they are kept as text.
 */
export async function sendToReference(base, token, request, body = request.body) {
  const headers = { Accept: 'application/json', ...(request.headers ?? {}) };
  if (request.token !== 'none') headers.Authorization = `Bearer ${token}`;
  const sent = request.rawBody !== undefined ? request.rawBody : body !== undefined ? JSON.stringify(body) : undefined;
  if (sent !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  const response = await fetch(base + request.path, { method: request.method, headers, body: sent });
  const text = await response.text();
  try {
    return { status: response.status, response: text === '' ? null : JSON.parse(text) };
  } catch {
    return { status: response.status, response: null, responseText: text };
  }
}
