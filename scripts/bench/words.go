package main

// Vocabulary for generated records. The words are plain ASCII letters and
// spaces so that adr-tools' slugs (tr -Ccs '[:alnum:]' -) and git-adr's agree
// and no title contains a character sed would treat specially.

var titleVerbs = []string{
	"Use", "Adopt", "Introduce", "Replace", "Standardise on", "Move to",
	"Keep", "Retire", "Prefer", "Require", "Split", "Consolidate",
}

var techs = []string{
	"PostgreSQL", "MySQL", "Redis", "Kafka", "RabbitMQ", "gRPC", "GraphQL",
	"OpenTelemetry", "Prometheus", "Terraform", "Kubernetes", "Nomad", "Envoy",
	"SQLite", "DynamoDB", "Elasticsearch", "ClickHouse", "NATS", "Vault",
	"feature flags", "event sourcing", "CQRS", "a monorepo", "trunk based development",
	"semantic versioning", "contract tests", "blue green deployments", "a service mesh",
	"structured logging", "OAuth device flow", "JSON Schema", "Protocol Buffers",
	"server side rendering", "a message outbox", "optimistic locking", "read replicas",
	"WebAssembly plugins", "a job queue", "short lived credentials", "canary releases",
}

var areas = []string{
	"billing", "order storage", "the search index", "user sessions", "audit logs",
	"payments", "notifications", "the public API", "internal tooling", "reporting",
	"inventory", "the mobile backend", "identity", "analytics ingestion", "scheduling",
	"the admin console", "customer exports", "rate limiting", "configuration",
	"document storage", "the checkout flow", "tenant isolation", "image processing",
}

var components = []string{
	"ledger", "gateway", "scheduler", "indexer", "ingest worker", "session store",
	"catalogue", "notifier", "exporter", "auth proxy", "report builder", "webhook relay",
	"pricing engine", "sync daemon", "upload service", "feature service",
}

var teams = []string{
	"The platform team", "The payments team", "Operations", "The data team",
	"Security", "The mobile team", "Support engineering", "The SRE rotation",
}

var qualities = []string{
	"latency", "throughput", "cost", "operability", "auditability", "data loss",
	"consistency", "vendor lock-in", "onboarding time", "test flakiness",
	"deployment risk", "memory pressure", "schema drift", "on-call load",
}

var fillers = []string{
	"in practice", "at the moment", "for most tenants", "during peak hours",
	"after the last migration", "across regions", "in the nightly batch",
	"for new services", "in the current quarter", "under sustained load",
}

// Sentence templates. Slots: {comp} {tech} {tech2} {area} {team} {qual}
// {qual2} {num} {pct} {fill}.
var sentences = []string{
	"The {comp} handles about {num} requests per second {fill} and its latency budget is tight.",
	"{team} has raised concerns about {qual} in {area}.",
	"We evaluated {tech} and {tech2} against our requirements for {qual} and {qual2}.",
	"Today {area} depends on the {comp}, which was written before {tech} was available to us.",
	"Incidents over the last year traced back to {qual} in the {comp} more than once.",
	"{tech} is already run by {team2} {fill}, so the operational knowledge exists.",
	"Any option must keep {qual} within the limits agreed with {team2}.",
	"The {comp} stores roughly {num} thousand rows per tenant {fill}.",
	"Changing {area} touches the {comp} and the {comp2}, and both have long release cycles.",
	"We do not want to trade {qual} for {qual2} without measuring both first.",
	"{tech} gives us {qual} guarantees that the current setup cannot offer.",
	"The migration can be done one tenant at a time, which limits the blast radius.",
	"Teams will need documentation and a runbook before the change reaches production.",
	"Costs grow with the number of {area} events, currently about {num} per minute {fill}.",
	"The decision is reversible for about six months, after which data written by {tech} would need converting.",
	"Monitoring for {qual} will be added to the {comp} dashboards before rollout.",
	"This keeps {area} consistent with how the {comp2} already works.",
	"Engineers who are new to {tech} will pair with {team2} for the first changes.",
	"Existing clients of the {comp} keep working; the old endpoint stays until usage drops below {num} calls a day.",
	"{team} will own the {comp} and its alerts.",
	"A spike showed that {tech} reduces {qual} by roughly {pct} percent on realistic data.",
	"We accept more {qual2} in exchange for simpler operations.",
	"The change does not affect {area} for customers on the legacy plan.",
	"Tests for the {comp} must run against {tech} in CI, not a mock.",
}

var listItems = []string{
	"All new code in {area} uses {tech}.",
	"The {comp} exposes {qual} metrics with the standard labels.",
	"{team} reviews every schema change to the {comp}.",
	"Configuration lives beside the code and is validated in CI.",
	"Rollouts go through staging and a canary at {pct} percent of traffic.",
	"The fallback path is exercised weekly.",
	"Secrets are read from the platform vault, never from the environment file.",
	"Deprecation of the old path is announced two releases ahead.",
	"Dashboards for {qual} and {qual2} are linked from the runbook.",
	"Load tests run before every major release of the {comp}.",
}
