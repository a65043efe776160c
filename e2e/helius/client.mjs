// Calls running dasch servers through the Helius SDK (helius-sdk, the
// version pinned in package.json) and prints one JSON summary on stdout.
// The SDK is pointed at each server with its baseUrl option and the
// server's API key as apiKey (it appends ?api-key=KEY itself); every call
// goes through the SDK's own method, transport and error handling.
//
// usage: node client.mjs CONFIG
//
// CONFIG is a JSON object:
//
//	calls  [{base, key, name, method, params, kind}], run in order: base
//	       the server's URL, key its API key, params the SDK method's
//	       argument. kind "list" (the default) records a list answer;
//	       "asset" one asset, "assets" an array of them; "cursor" and
//	       "page" page through a listing (params' limit per page) by the
//	       answer's cursor or by page number until a page is empty;
//	       "failure" expects the call to throw; "solana" calls a standard
//	       Solana method, params.args being its arguments.
//
// A list answer is recorded as {head, ids, editions}: head its members but
// the list and last_indexed_slot, ids the list's item ids (id, address or
// edition_address), editions each edition's Helius members {mint,
// edition}. An asset is recorded as {interface, id, name, owner,
// compressed}. A call that throws unexpectedly is recorded under "errors"
// instead, and the exit status is then 1. A failure is recorded as
// {threw, name, message, statusCode}.

import { createHelius } from 'helius-sdk';

if (process.argv.length !== 3) {
    console.error('usage: node client.mjs CONFIG');
    process.exit(2);
}
const config = JSON.parse(process.argv[2]);

// The SDK's DAS methods; any other name is a test error.
const methods = new Set([
    'getAsset',
    'getAssetBatch',
    'getAssetsByOwner',
    'getAssetsByGroup',
    'getAssetsByCreator',
    'getAssetsByAuthority',
    'searchAssets',
    'getTokenAccounts',
    'getNftEditions',
    'getAssetProof',
    'getAssetProofBatch',
    'getSignaturesForAsset',
]);

// One client per server, as an application would keep it.
const clients = new Map();
function client(c) {
    if (c.kind !== 'solana' && !methods.has(c.method)) {
        throw new Error(`${c.method} is not a DAS method of the SDK`);
    }
    if (!clients.has(c.base)) {
        clients.set(c.base, createHelius({ baseUrl: c.base, apiKey: c.key }));
    }
    return clients.get(c.base);
}

const lists = { items: 'id', token_accounts: 'address', editions: 'edition_address' };

function list(answer) {
    const head = {};
    let ids = null;
    let editions;
    for (const [k, v] of Object.entries(answer)) {
        if (k in lists) {
            ids = v.map(item => item[lists[k]]);
            if (k === 'editions') {
                editions = v.map(e => ({ mint: e.mint ?? null, edition: e.edition ?? null }));
            }
        } else if (k !== 'last_indexed_slot') {
            head[k] = v;
        }
    }
    return { head, ids, editions };
}

const asset = a =>
    a === null
        ? null
        : {
              interface: a.interface ?? null,
              id: a.id ?? null,
              name: a.content?.metadata?.name ?? null,
              owner: a.ownership?.owner ?? null,
              compressed: a.compression?.compressed ?? null,
          };

async function run(c) {
    const h = client(c);
    switch (c.kind ?? 'list') {
        case 'list':
            return list(await h[c.method](c.params));
        case 'asset':
            return asset(await h[c.method](c.params));
        case 'raw':
            return await h[c.method](c.params);
        case 'solana': {
            // A standard Solana method of the SDK's @solana/kit RPC, with
            // params as its arguments; kit answers integers as bigints.
            let r = h[c.method](...(c.params?.args ?? []));
            r = typeof r?.send === 'function' ? await r.send() : await r;
            return JSON.parse(JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? v.toString() : v)));
        }
        case 'assets': {
            const got = await h[c.method](c.params);
            if (!Array.isArray(got)) {
                throw new Error(`${c.method} returned ${JSON.stringify(got)}, not an array`);
            }
            return got.map(asset);
        }
        case 'cursor':
        case 'page': {
            const pages = [];
            let cursor;
            for (let page = 1; page <= 50; page++) {
                const params = { ...c.params };
                if (c.kind === 'page') {
                    params.page = page;
                } else if (cursor !== undefined) {
                    params.cursor = cursor;
                }
                const got = list(await h[c.method](params));
                pages.push(got);
                if (got.ids.length === 0) {
                    break;
                }
                cursor = got.head.cursor;
            }
            return pages;
        }
    }
    throw new Error(`unknown kind ${c.kind}`);
}

const summary = {};
const errors = {};
for (const c of config.calls) {
    if (c.kind === 'failure') {
        try {
            const value = await client(c)[c.method](c.params);
            summary[c.name] = { threw: false, value };
        } catch (e) {
            summary[c.name] = {
                threw: true,
                name: e && e.name,
                message: String(e && e.message),
                statusCode: e?.context?.statusCode ?? null,
            };
        }
        continue;
    }
    try {
        summary[c.name] = await run(c);
    } catch (e) {
        errors[c.name] = String(e && e.stack ? e.stack : e);
    }
}

summary.errors = errors;
process.stdout.write(JSON.stringify(summary, null, 1) + '\n');
process.exit(Object.keys(errors).length ? 1 : 0);
