// Calls a running dasch through the Metaplex Digital Asset Standard API
// client (@metaplex-foundation/digital-asset-standard-api on a Umi RPC) and
// prints one JSON summary on stdout. Every call goes through the client's own
// request and error code, so what the summary shows is what an application
// using the client sees.
//
// usage: node client.mjs CONFIG
//
// CONFIG is a JSON object:
//
//	url        the endpoint, with its ?api-key=KEY
//	assets     ids to fetch one at a time with getAsset
//	batch      ids to fetch in one getAssets call, in this order
//	missing    a well-formed id with no asset
//	malformed  a string that is not a base58 32-byte address
//	wrongUrl   the endpoint with a path the server does not serve
//
// Calls expected to succeed are recorded under their name; a failure is
// recorded under "errors" instead, and the exit status is then 1. Calls
// expected to fail are recorded as {threw, name, message}.

import { createUmi } from '@metaplex-foundation/umi-bundle-defaults';
import { publicKey } from '@metaplex-foundation/umi';
import { dasApi } from '@metaplex-foundation/digital-asset-standard-api';

if (process.argv.length !== 3) {
    console.error('usage: node client.mjs CONFIG');
    process.exit(2);
}
const config = JSON.parse(process.argv[2]);

const umi = createUmi(config.url).use(dasApi());

const summary = {};
const errors = {};

async function call(name, fn) {
    try {
        summary[name] = await fn();
    } catch (e) {
        errors[name] = String(e && e.stack ? e.stack : e);
    }
}

// failure records a call that should fail: whether it threw, and with what.
async function failure(name, fn) {
    try {
        const value = await fn();
        summary[name] = { threw: false, value };
    } catch (e) {
        summary[name] = { threw: true, name: e && e.name, message: String(e && e.message) };
    }
}

// The members of DasApiAsset the checks read, through the client's typing;
// a member the response lacks is null.
const view = a =>
    a === null
        ? null
        : {
              interface: a.interface ?? null,
              id: a.id ?? null,
              name: a.content?.metadata?.name ?? null,
              owner: a.ownership?.owner ?? null,
              compressed: a.compression?.compressed ?? null,
              basisPoints: a.royalty?.basis_points ?? null,
              burnt: a.burnt ?? null,
          };

for (const id of config.assets) {
    await call(`getAsset/${id}`, async () => view(await umi.rpc.getAsset(publicKey(id))));
}

await call('getAssets', async () => {
    const assets = await umi.rpc.getAssets(config.batch.map(id => publicKey(id)));
    if (!Array.isArray(assets)) {
        throw new Error(`getAssets returned ${JSON.stringify(assets)}, not an array`);
    }
    return assets.map(view);
});

await failure('getAsset/missing', () => umi.rpc.getAsset(publicKey(config.missing)));

// publicKey() would refuse the malformed id before any request, so it is
// passed as the plain string a caller without that check would send.
await failure('getAsset/malformed', () => umi.rpc.getAsset(config.malformed));
await failure('getAssets/malformed', () =>
    umi.rpc.getAssets([publicKey(config.batch[0]), config.malformed]),
);

// A client pointed at a wrong path: what it shows must tell that from a
// missing asset.
const wrong = createUmi(config.wrongUrl).use(dasApi());
await failure('getAsset/unknown-path', () => wrong.rpc.getAsset(publicKey(config.missing)));

summary.errors = errors;
process.stdout.write(JSON.stringify(summary, null, 1) + '\n');
process.exit(Object.keys(errors).length ? 1 : 0);
