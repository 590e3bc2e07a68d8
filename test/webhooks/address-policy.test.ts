/**
 * refusePrivateAddresses: the policy as a pure function over a table of addresses (every form an
 * IPv6 address can carry an internal IPv4 address in, and public ones that must pass), and a
 * send that refuses before any socket connects, for a name (a resolver stub) and for an address
 * written in the URL (which Node never looks up). The addresses here are strings only: the send
 * tests replace the socket's connect, so nothing outside loopback is ever connected to even when
 * the policy is wrong.
 */
import { expect } from 'chai';
import type { LookupAddress } from 'node:dns';
import { isIP, Socket } from 'node:net';
import { addressRefusal } from '../../plugin/webhooks/address-policy.js';
import { sendEvent } from '../../plugin/webhooks/send.js';

/** Each internal IPv4 address of the table, and the IPv6 forms that carry it. */
const INTERNAL_IPV4: Record<string, string[]> = {
  '127.0.0.1': ['::ffff:127.0.0.1', '::127.0.0.1', '::7f00:1', '::ffff:0:127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '2002:7f00:1::', '2002:7f00:1:1::1', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
  '10.1.2.3': ['::ffff:10.1.2.3', '::10.1.2.3', '64:ff9b::a01:203', '2002:a01:203::1', '2001:0:4136:e378:0:0:f5fe:fdfc'],
  '192.168.1.1': ['::ffff:192.168.1.1', '::192.168.1.1', '64:ff9b::c0a8:101', '2002:c0a8:101::', '2001:0:4136:e378:0:0:3f57:fefe'],
  '169.254.169.254': ['::ffff:169.254.169.254', '::169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::', '2001:0:4136:e378:0:0:5601:5601'],
};

const OTHER_INTERNAL = [
  // IPv4: unspecified, private, CGNAT, IETF protocol assignments, documentation, benchmarking, multicast, reserved, broadcast
  '0.0.0.0', '0.1.2.3', '172.16.0.1', '172.31.255.255', '100.64.0.1', '192.0.0.8', '192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '198.19.255.255',
  '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255', '127.255.255.254',
  // IPv6: unspecified, loopback, unique local, link-local (with a zone), site-local, multicast, documentation, benchmarking, discard, ORCHID, local-use NAT64, outside 2000::/3
  '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'fec0::1', 'ff02::1', 'ff05::1:3', '2001:db8::1', '2001:2::1', '100::1', '2001:20::1', '64:ff9b:1::a01:203', '3fff::1', '5f00::1', '4000::1',
  // Teredo with a private server address, 6to4 and NAT64 forms of a documentation address
  '2001:0:a00:1:0:0:f7f7:f7f7', '2002:c000:201::1', '64:ff9b::c000:201',
  // not an address at all
  'localhost', '',
];

const PUBLIC = [
  '8.8.8.8', '1.1.1.1', '93.184.216.34', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '192.169.0.1', '11.0.0.1',
  '2606:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:800::200e',
  // forms of public IPv4 addresses: the address they reach is public
  '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
];

describe('webhooks: the private-address policy', function () {
  it('refuses each internal IPv4 address and every IPv6 form that carries it, naming the form', () => {
    for (const [ipv4, forms] of Object.entries(INTERNAL_IPV4)) {
      expect(addressRefusal(ipv4), ipv4).to.be.a('string');
      for (const form of forms) expect(addressRefusal(form), form).to.be.a('string').and.contain(`form of ${ipv4}`);
    }
  });

  it('refuses the other special-purpose ranges of IPv4 and IPv6, and what is not an address', () => {
    for (const address of OTHER_INTERNAL) expect(addressRefusal(address), address).to.be.a('string');
    expect(addressRefusal('::127.0.0.1')).to.equal('loopback (IPv4-compatible form of 127.0.0.1)');
    expect(addressRefusal('2002:7f00:1::')).to.equal('loopback (6to4 form of 127.0.0.1)');
    expect(addressRefusal('64:ff9b::7f00:1')).to.equal('loopback (NAT64 form of 127.0.0.1)');
    expect(addressRefusal('100.64.0.1')).to.equal('carrierGradeNat');
  });

  it('lets public unicast addresses pass, in IPv6 forms too', () => {
    for (const address of PUBLIC) expect(addressRefusal(address), address).to.equal(null);
  });
});

describe('webhooks: a send with refusePrivateAddresses', function () {
  const target = (url: string) => ({ name: 't', url, headers: {}, secret: null, events: new Set(['entry.create'] as const), types: null });
  const event = { id: '00000000-0000-0000-0000-000000000000', name: 'entry.create', body: '{}' };
  const options = { timeout: 2000, refusePrivateAddresses: true };
  const realConnect = Socket.prototype.connect;
  /** Every socket connect asked for (a literal address is connected at once). */
  let connects: unknown[];
  /** Every address handed to a socket after its lookup. */
  let handedToSocket: string[];

  beforeEach(() => {
    connects = [];
    handedToSocket = [];
  });
  afterEach(() => {
    Socket.prototype.connect = realConnect;
  });

  /** No socket connects at all: any connect is recorded and failed. */
  function forbidConnects(): void {
    Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
      connects.push(args[0]);
      process.nextTick(() => this.destroy(new Error('connect forbidden by the test')));
      return this;
    } as never;
  }

  type Lookup = (hostname: unknown, options: unknown, callback: (error: Error | null, address?: string | LookupAddress[]) => void) => void;

  /**
   * A socket connects only to what its lookup hands it: that is recorded, and anything is failed
   * there instead of connected to (the test's own guard, in case the policy let it through).
   */
  function guardLookups(): void {
    Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
      // net.createConnection hands connect its arguments normalized: [options, listener].
      const connectOptions = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { lookup?: Lookup };
      const lookup = connectOptions?.lookup;
      if (!lookup) throw new Error('a connect without a lookup');
      connectOptions.lookup = (hostname, lookupOptions, callback) =>
        lookup(hostname, lookupOptions, (error, address) => {
          if (error || address === undefined) return callback(error);
          handedToSocket.push(...(typeof address === 'string' ? [address] : address.map((entry) => entry.address)));
          callback(new Error('connect forbidden by the test'));
        });
      return realConnect.apply(this, args as never);
    } as never;
  }

  const stub = (answers: Record<string, string[]>) => (hostname: string, _options: unknown, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) =>
    setImmediate(() => callback(null, (answers[hostname] ?? []).map((address) => ({ address, family: isIP(address.replace(/%.*/, '')) }))));

  it('refuses a name any of whose addresses is internal, before a socket is handed an address', async () => {
    guardLookups();
    const answers: Record<string, string[]> = {
      'compatible.test': ['::127.0.0.1'],
      'nat64.test': ['64:ff9b::7f00:1'],
      '6to4.test': ['2002:7f00:1::'],
      'teredo.test': ['2001:0:4136:e378:8000:63bf:80ff:fffe'],
      'mapped.test': ['::ffff:10.0.0.1'],
      'mixed.test': ['8.8.8.8', '192.168.1.1'],
      'metadata.test': ['169.254.169.254'],
    };
    for (const host of Object.keys(answers)) {
      const attempt = await sendEvent(target(`http://${host}:9/hook`), event, { ...options, resolve: stub(answers) });
      expect(attempt.ok, host).to.equal(false);
      expect(attempt.error, host).to.match(new RegExp(`^${host.replace('.', '\\.')} resolves to .*, a private address: `));
    }
    expect(handedToSocket).to.deep.equal([]);
  });

  it('hands a socket the public addresses it checked (the guard fails the connect here)', async () => {
    guardLookups();
    const attempt = await sendEvent(target('http://public.test:9/hook'), event, { ...options, resolve: stub({ 'public.test': ['2606:4700::1111', '8.8.8.8'] }) });
    expect(attempt.error).to.equal('connect forbidden by the test');
    expect(handedToSocket.sort()).to.deep.equal(['2606:4700::1111', '8.8.8.8']);
  });

  it('refuses an internal address written in the URL before any socket connects', async () => {
    forbidConnects();
    for (const url of ['http://[::127.0.0.1]:9/', 'http://[64:ff9b::7f00:1]:9/', 'http://[2002:7f00:1::]:9/', 'http://[::ffff:a00:1]:9/', 'https://[fd00::1]/', 'http://0x7f000001:9/', 'http://2130706433:9/', 'http://100.64.0.1:9/']) {
      const attempt = await sendEvent(target(url), event, options);
      expect(attempt.ok, url).to.equal(false);
      expect(attempt.error, url).to.match(/ is a private address: .*\(refusePrivateAddresses\)$/);
    }
    expect(connects).to.deep.equal([]);
    const allowed = await sendEvent(target('http://[2606:4700::1111]:9/'), event, options);
    expect(allowed.error).to.equal('connect forbidden by the test');
    expect(connects).to.have.length(1);
  });
});
