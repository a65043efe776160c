package schema

// TableRequestLog holds one row per API request, for usage, billing and
// analysis (docs/schema.md, Usage).
const TableRequestLog = "request_log"

// usage is migration 30: the request log, and what projects and keys
// need for plans, credits and per-service access.
//
// request_log is a plain MergeTree: every request is its own row, none
// replaces another. It is ordered by project and time, as the usage
// endpoint and most questions about usage ask for one project over a
// period, and partitioned by month, which drops whole months cheaply.
// The writer inserts each batch with a random batch id; the deduplication
// window makes an insert it retries after an unknown outcome (a lost
// acknowledgement) count once, while no two distinct batches can ever
// hash alike. Credits are micro-credits, whole numbers, so sums are
// exact whatever the order; credits reads them as credits.
//
// A project row is replaced by a newer one with the same id (every
// reader takes the latest by updated_at); a plan's credit limit applies
// when credits_limit is null, the project's creation date is its billing
// anchor when billing_anchor is null. prepaid_credits were granted at
// prepaid_at and are consumed, after the monthly credits, from then on.
// A key with services limited to some service classes is refused the
// others; an empty list allows every one.
func usage() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS request_log (
			at DateTime64(3, 'UTC'),
			project_id LowCardinality(String),
			key_id LowCardinality(String),
			method LowCardinality(String),
			service LowCardinality(String),
			credits_micro UInt64,
			credits Float64 ALIAS credits_micro / 1000000,
			billed Bool,
			http_status UInt16,
			rpc_code Int32,
			request_bytes UInt32,
			response_bytes UInt32,
			batch_size UInt16,
			latency_us UInt32,
			context_slot UInt64,
			batch_id UInt64
		) ENGINE = MergeTree
		PARTITION BY toYYYYMM(at)
		ORDER BY (project_id, at)
		SETTINGS non_replicated_deduplication_window = 1000`,
		`ALTER TABLE api_projects
			ADD COLUMN IF NOT EXISTS plan LowCardinality(String) DEFAULT 'free',
			ADD COLUMN IF NOT EXISTS credits_limit Nullable(UInt64),
			ADD COLUMN IF NOT EXISTS billing_anchor Nullable(Date),
			ADD COLUMN IF NOT EXISTS prepaid_credits UInt64 DEFAULT 0,
			ADD COLUMN IF NOT EXISTS prepaid_at DateTime64(3, 'UTC') DEFAULT created_at,
			ADD COLUMN IF NOT EXISTS updated_at DateTime64(3, 'UTC') DEFAULT now64(3)`,
		`ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS services Array(LowCardinality(String)) DEFAULT []`,
	}
}
