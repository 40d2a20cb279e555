package retrieve

import (
	"slices"
	"strings"
	"sync"
)

// concepts are groups of words that software teams use for the same thing.
// A request that says "datastore" should find the record that says
// "PostgreSQL". Expansions score less than the words of the request itself
// and never count as the request's own words for coverage beyond the word
// they expand.
//
// The groups were written while looking at the shared corpora and their
// labelled tasks, and later at the misses of sets that had become tuning
// sets (the scheduling, routing, deletion and spreadsheet groups come
// from outside7's), so those sets are tuning sets for it: figures on them
// overstate what the thesaurus does for another log (docs/
// benchmarks-context.md has the ablation, with and without it, on sets it
// was not fitted to). Entries are generic software vocabulary and product
// names of a category (databases, brokers, clouds); words that belong to
// one corpus (a product's own jargon, an abbreviation one project uses)
// are not entries.
var concepts = []string{
	"database db databases datastore datastores rdbms sql postgres postgresql mysql mariadb sqlite oracle mssql persistence persist persistent storage store relational schema table tables",
	"nosql mongodb mongo dynamodb cassandra couchdb document key-value keyvalue",
	"cache caching cached redis memcached memcache ttl invalidation",
	"queue queues queuing messaging message messages broker brokers kafka rabbitmq amqp sqs sns pubsub pub-sub publish subscribe event events eventing stream streams streaming consumer consumers producer",
	"authentication authenticate auth login logon signin sign-in sso oauth oauth2 oidc openid saml identity credential credentials password passwords mfa 2fa token tokens jwt session sessions",
	"authorization authorize permission permissions rbac acl access role roles policy policies entitlement",
	"deploy deployment deployments deploying release releases releasing rollout rollback ship shipping delivery continuous ci cd pipeline pipelines build builds",
	"container containers docker image images kubernetes k8s pod pods helm cluster clusters orchestration",
	"cloud aws azure gcp amazon google hosting hosted host infrastructure infra terraform provisioning iaas paas serverless lambda",
	"log logs logging logger observability tracing trace traces telemetry metric metrics monitoring monitor alert alerts alerting dashboard opentelemetry prometheus grafana",
	"test tests testing unit integration e2e end-to-end coverage mock mocks fixture fixtures qa quality",
	"api apis endpoint endpoints rest restful http https graphql grpc rpc protobuf openapi swagger interface contract",
	"frontend front-end ui ux user-interface web browser react vue angular svelte javascript typescript css html spa",
	"backend back-end microservice microservices monolith modular",
	"config configuration configure settings setting options environment env variables flags feature-flag toggles",
	"secret secrets vault kms encryption encrypt encrypted key keys certificate certificates tls ssl crypto cryptography signing signature",
	"language golang java kotlin python ruby rust typescript javascript node nodejs csharp dotnet scala elixir clojure",
	"dependency dependencies library libraries package packages framework frameworks vendor vendoring module",
	"version versions versioning semver compatibility backward breaking migration migrations migrate upgrade upgrades",
	"performance latency throughput fast speed slow scalability scale scaling load capacity",
	"spreadsheet spreadsheets excel xlsx csv export exports exporting",
	"reliability availability resilience resilient failover redundancy outage retry retries timeout timeouts circuit-breaker fault",
	"document documentation docs doc readme wiki guide manual markdown",
	"error errors exception exceptions failure failures handling panic crash",
	"file files filesystem disk directory directories folder folders path paths",
	"network networking dns ip vpc subnet firewall proxy load-balancer loadbalancer ingress gateway routing",
	"search index indexing elasticsearch opensearch lucene solr full-text",
	"payment payments billing invoice invoices stripe checkout subscription subscriptions",
	"email emails mail notification notifications sms push alerting",
	"user users customer customers account accounts tenant tenants tenancy multi-tenant",
	"time date dates timezone timestamps clock schedule scheduling cron job jobs batch",
	"schedule scheduled scheduler scheduling cron timer timers periodic recurring background job jobs",
	"route routes routing router routers mux multiplexer handler handlers path paths url urls",
	"delete deletes deleted deleting deletion remove removal removed soft-delete tombstone archive archived",
	"limit limits limiting cap caps capped maximum bound bounds quota ceiling threshold",
	"expire expires expiry expiration expired ttl retention lifetime eviction",
	"style lint linting linter format formatting prettier eslint gofmt convention conventions",
	"repository repositories repo repos monorepo git branch branches commit commits merge",
	"privacy gdpr pii compliance audit auditing regulation legal license licence licensing",
	"mobile ios android app apps",
	"data analytics warehouse etl pipeline reporting bi",
	"cost costs budget pricing price expensive cheap",
}

// phrases are multi-word terms and their usual abbreviation; a request
// with either form also looks for the other.
var phrases = [][2]string{
	{"time to live", "ttl"}, {"single sign on", "sso"}, {"continuous integration", "ci"},
	{"continuous delivery", "cd"}, {"continuous deployment", "cd"}, {"key value", "kv"},
	{"role based access control", "rbac"}, {"access control list", "acl"}, {"infrastructure as code", "iac"},
	{"end to end", "e2e"}, {"command line", "cli"}, {"pull request", "pr"}, {"merge request", "mr"},
	{"domain driven design", "ddd"}, {"command query responsibility segregation", "cqrs"},
	{"service level objective", "slo"}, {"service level agreement", "sla"}, {"user interface", "ui"},
	{"application programming interface", "api"}, {"content delivery network", "cdn"},
	{"object relational mapping", "orm"}, {"remote procedure call", "rpc"}, {"multi factor authentication", "mfa"},
	{"two factor authentication", "2fa"}, {"personally identifiable information", "pii"},
	{"single page application", "spa"}, {"server side rendering", "ssr"}, {"message queue", "mq"},
	{"write ahead log", "wal"}, {"change data capture", "cdc"}, {"json web token", "jwt"},
}

// thesaurus is the analysed form of concepts, built the first time a
// request is expanded (not when git-adr starts: most processes never
// rank anything).
type thesaurus struct {
	// index maps an analysed word to the groups it belongs to.
	index map[string][]int
	terms [][]string
}

var concept = sync.OnceValue(func() *thesaurus {
	th := &thesaurus{index: map[string][]int{}}
	for gi, line := range concepts {
		seen := map[string]bool{}
		var terms []string
		for _, w := range strings.Fields(line) {
			t := conceptTerm(w)
			if !seen[t] {
				seen[t] = true
				terms = append(terms, t)
			}
		}
		th.terms = append(th.terms, terms)
		for _, t := range terms {
			th.index[t] = append(th.index[t], gi)
		}
	}
	return th
})

// senses are the groups a request word q[i] is expanded with. A word of
// several groups ("pipeline": delivery, data) is expanded only with the
// groups another word of the request also belongs to, when there are
// such groups ("deployment pipeline" means delivery); with no such word
// every group stands.
func (th *thesaurus) senses(q []QueryTerm, i int) []int {
	groups := th.index[q[i].Text]
	if len(groups) < 2 {
		return groups
	}
	var backed []int
	for _, gi := range groups {
		for j, t := range q {
			if j != i && t.Weight >= 1 && slices.Contains(th.index[t.Text], gi) {
				backed = append(backed, gi)
				break
			}
		}
	}
	if len(backed) > 0 {
		return backed
	}
	return groups
}

// conceptTerm is the one term a thesaurus entry stands for. A hyphenated
// entry ("user-interface", "sign-in") is the whole identifier, as the
// analyser indexes it beside its parts: splitting it would put "user" in
// the frontend group and "sign" and "in" in the login group.
func conceptTerm(w string) string {
	ts := Analyzer{KeepStopwords: true}.TermTexts(w)
	if len(ts) == 0 {
		return w
	}
	return ts[0] // the whole identifier comes first when w has parts
}

// ExpansionWeight is the weight of a thesaurus expansion relative to a word
// of the request.
const ExpansionWeight = 0.35

// Query analyses a request into weighted terms: each word of the request
// (weight 1, its own coverage group) and, when the word belongs to a
// concept, the other words of that concept at ExpansionWeight. Expansions
// are limited so that one broad concept cannot drown the request.
func Query(text string, lang Language) []QueryTerm { return QueryWith(text, lang, QueryOptions{}) }

// QueryOptions switch parts of query analysis off, to measure them.
type QueryOptions struct {
	NoThesaurus bool // no concept expansions
	NoPhrases   bool // no phrase/abbreviation expansions
}

// QueryWith is Query with parts of the analysis switched off.
func QueryWith(text string, lang Language, o QueryOptions) []QueryTerm {
	a := Analyzer{Lang: lang, Query: true}
	terms := a.TermTexts(text)
	if len(terms) == 0 {
		terms = Analyzer{Lang: lang, KeepStopwords: true}.TermTexts(text)
	}
	var q []QueryTerm
	seen := map[string]bool{}
	for _, t := range terms {
		if !seen[t] {
			seen[t] = true
			q = append(q, QueryTerm{Text: t, Weight: 1, Group: len(q)})
		}
	}
	// A phrase and its abbreviation stand for each other.
	folded := " " + strings.Join(Analyzer{Lang: lang, KeepStopwords: true}.TermTexts(text), " ") + " "
	for _, ph := range phrases {
		if o.NoPhrases {
			break
		}
		long := " " + strings.Join(Analyzer{KeepStopwords: true}.TermTexts(ph[0]), " ") + " "
		abbr := Analyzer{KeepStopwords: true}.TermTexts(ph[1])
		if len(abbr) != 1 {
			continue
		}
		switch {
		case strings.Contains(folded, long) && !seen[abbr[0]]:
			// The abbreviation counts for the phrase's first word.
			first := strings.Fields(long)[0]
			g := -1
			for _, t := range q {
				if t.Text == first {
					g = t.Group
				}
			}
			seen[abbr[0]] = true
			q = append(q, QueryTerm{Text: abbr[0], Weight: 1, Group: g})
		case strings.Contains(folded, " "+abbr[0]+" "):
			g := -1
			for _, t := range q {
				if t.Text == abbr[0] {
					g = t.Group
				}
			}
			for _, w := range strings.Fields(long) {
				if !seen[w] && !stopwords[w] {
					seen[w] = true
					q = append(q, QueryTerm{Text: w, Weight: ExpansionWeight, Group: g})
				}
			}
		}
	}
	if o.NoThesaurus {
		return q
	}
	// Only the request's own words (and an abbreviation standing for a
	// phrase of it) are expanded: an expansion of an expansion ("ci", then
	// "integration", then the testing group) drifts from the request.
	th := concept()
	words := len(q)
	for i := 0; i < words; i++ {
		if q[i].Weight < 1 {
			continue
		}
		for _, gi := range th.senses(q, i) {
			for _, e := range th.terms[gi] {
				if !seen[e] {
					seen[e] = true
					q = append(q, QueryTerm{Text: e, Weight: ExpansionWeight, Group: q[i].Group})
				}
			}
		}
	}
	return q
}

// AlternateWeight is the weight of a request word stemmed the way
// another language stems it: it may match, but it does not define what
// the word weighs (Search's group weights come from weight-1 terms).
const AlternateWeight = 0.99

// WithAlternateStems adds to q each word of text stemmed as the other
// languages the analyser knows stem it, in the word's group: a short
// request ("chiffrement en rust") is often detected as English while the
// log it asks is French, whose stems ("chiffr") the English stemmer
// never produces. Stop words of the other languages are not added.
func WithAlternateStems(text string, lang Language, q []QueryTerm) []QueryTerm {
	seen := map[string]bool{}
	groupAt := map[int]int{}
	for _, t := range q {
		seen[t.Text] = true
	}
	for _, t := range (Analyzer{Lang: lang, Query: true}).Terms(text) {
		for _, qt := range q {
			if qt.Text == t.Text && qt.Weight >= 1 {
				groupAt[t.Start] = qt.Group
				break
			}
		}
	}
	for _, other := range []Language{English, French, Spanish, German} {
		if other == lang {
			continue
		}
		for _, t := range (Analyzer{Lang: other, Query: true}).Terms(text) {
			g, ok := groupAt[t.Start]
			if !ok || seen[t.Text] {
				continue
			}
			seen[t.Text] = true
			q = append(q, QueryTerm{Text: t.Text, Weight: AlternateWeight, Group: g})
		}
	}
	return q
}
