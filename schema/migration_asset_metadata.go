package schema

// Tables of off-chain metadata: the JSON documents assets name by URI.
const (
	// TableAssetMetadata is the fetch queue and status, one row per URI.
	TableAssetMetadata = "asset_metadata"
	// TableAssetMetadataDocs holds the newest document fetched from each
	// URI.
	TableAssetMetadataDocs = "asset_metadata_docs"
)

// Fetch states of an asset_metadata row.
const (
	// MetadataQueued is a URI never fetched, or due again (a refresh).
	MetadataQueued = "queued"
	// MetadataRetry failed in a way that may pass (a timeout, 429, 5xx)
	// and is due again at next_at.
	MetadataRetry = "retry"
	// MetadataFetched has its document stored; the assets naming it are
	// not folded with it yet.
	MetadataFetched = "fetched"
	// MetadataOK has its document stored and folded into its assets.
	MetadataOK = "ok"
	// MetadataFailed will not be fetched again (reason says why) until a
	// refresh.
	MetadataFailed = "failed"
)

// AssetPathJSONURI files an asset in asset_keys under the SHA-256 of its
// json_uri (as asset_metadata keys it), so the assets naming a URI whose
// document arrives are found by key. Like depends rows, these carry no
// document.
const AssetPathJSONURI = "json_uri"

// assetMetadata is migration 34.
//
// Every distinct json_uri the asset state step folds gets an
// asset_metadata row (status queued); the fetcher takes due rows, fetches
// them and writes a newer version of the row with the outcome. Both
// tables are keyed by hash, the SHA-256 of the URI, so a chunk of URIs
// is one keyed read. A successful fetch writes the document to
// asset_metadata_docs first and then the row (fetched); once the assets
// naming the URI are folded again with it, the row becomes ok. Failures
// never touch asset_metadata_docs: a document refreshed is served until
// a newer one replaces it.
func assetMetadata() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS asset_metadata (
			hash FixedString(32),
			uri String,
			status LowCardinality(String),
			reason String,
			attempts UInt32,
			http_status UInt16,
			next_at UInt64,
			fetched_at UInt64,
			updated_at UInt64,
			version UInt64
		) ENGINE = ReplacingMergeTree(version)
		ORDER BY hash
		SETTINGS index_granularity = 1024`,
		`CREATE TABLE IF NOT EXISTS asset_metadata_docs (
			hash FixedString(32),
			uri String,
			doc String CODEC(ZSTD(3)),
			content_type String,
			size UInt32,
			fetched_at UInt64,
			version UInt64
		) ENGINE = ReplacingMergeTree(version)
		ORDER BY hash
		SETTINGS index_granularity = 1024`,
	}
}
