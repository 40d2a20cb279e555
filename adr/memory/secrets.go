package memory

import (
	_ "embed"
	"encoding/base64"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/git-adr/git-adr/internal/tomldepth"
)

// GitleaksVersion is the gitleaks release whose default rules
// (config/gitleaks.toml, MIT licence: rules/LICENSE.gitleaks) are embedded
// unchanged as rules/gitleaks.toml; scripts/update-gitleaks-rules replaces
// them with another release's.
const GitleaksVersion = "v8.30.1"

// The rule sets: gitleaks' default rules, then git-adr's own for formats
// they do not recognise (rules/git-adr.toml), in the same format.
var (
	//go:embed rules/gitleaks.toml
	gitleaksRules []byte
	//go:embed rules/git-adr.toml
	ownRules []byte
)

// what names, for a person, the formats of the rules most often met; any
// other rule is "a credential" (its ID is in the message too).
var what = map[string]string{
	"private-key":              "a private key",
	"age-secret-key":           "an age secret key",
	"aws-access-token":         "an AWS access key ID",
	"gcp-api-key":              "a Google Cloud API key",
	"github-pat":               "a GitHub personal access token",
	"github-oauth":             "a GitHub OAuth access token",
	"github-app-token":         "a GitHub App token",
	"github-refresh-token":     "a GitHub refresh token",
	"github-fine-grained-pat":  "a GitHub fine-grained personal access token",
	"gitlab-pat":               "a GitLab personal access token",
	"gitlab-ptt":               "a GitLab pipeline trigger token",
	"gitlab-rrt":               "a GitLab runner registration token",
	"slack-bot-token":          "a Slack bot token",
	"slack-user-token":         "a Slack user token",
	"slack-webhook-url":        "a Slack webhook URL",
	"stripe-access-token":      "a Stripe API key",
	"openai-api-key":           "an OpenAI API key",
	"anthropic-api-key":        "an Anthropic API key",
	"huggingface-access-token": "a Hugging Face access token",
	"npm-access-token":         "an npm access token",
	"pypi-upload-token":        "a PyPI upload token",
	"sendgrid-api-token":       "a SendGrid API key",
	"twilio-api-key":           "a Twilio API key",
	"digitalocean-pat":         "a DigitalOcean token",
	"shopify-access-token":     "a Shopify token",
	"databricks-api-token":     "a Databricks API token",
	"vault-service-token":      "a HashiCorp Vault token",
	"jwt":                      "a JSON Web Token",
	"curl-auth-user":           "a password given to curl -u",
	"curl-auth-header":         "a credential in a curl header",
	"url-credentials":          "a password in a URL",
	"http-basic-auth":          "HTTP Basic credentials",
	"generic-api-key":          "a credential assigned to a key, password, secret or token",
}

// verify are further checks of git-adr's own rules that a regular
// expression cannot make: a Basic credential is base64 of "user:password".
var verify = map[string]func(secret string) bool{
	"http-basic-auth": func(s string) bool {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
		}
		i := strings.IndexByte(string(b), ':')
		return err == nil && i >= 0 && i < len(b)-1
	},
}

// ruleFile is gitleaks' configuration format, the parts that apply to a
// text without a path or a commit.
type ruleFile struct {
	Allowlist  *allowlistDef   `toml:"allowlist"`
	Allowlists []*allowlistDef `toml:"allowlists"`
	Rules      []struct {
		ID          string          `toml:"id"`
		Path        string          `toml:"path"`
		Regex       string          `toml:"regex"`
		SecretGroup int             `toml:"secretGroup"`
		Entropy     float64         `toml:"entropy"`
		Keywords    []string        `toml:"keywords"`
		Allowlist   *allowlistDef   `toml:"allowlist"`
		Allowlists  []*allowlistDef `toml:"allowlists"`
		Required    []any           `toml:"required"`
		SkipReport  bool            `toml:"skipReport"`
	} `toml:"rules"`
}

type allowlistDef struct {
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Commits     []string `toml:"commits"`
	Paths       []string `toml:"paths"`
	Regexes     []string `toml:"regexes"`
	StopWords   []string `toml:"stopwords"`
	TargetRules []string `toml:"targetRules"`
}

// rule is one compiled rule.
type rule struct {
	id          string
	re          *regexp.Regexp
	secretGroup int
	entropy     float64
	keywords    []string
	allow       []*allowlist
}

// allowlist is a compiled gitleaks allowlist. Commits and paths never
// match a memory text, which has neither.
type allowlist struct {
	and            bool
	target         string // "" (the secret), "match" or "line"
	commits, paths bool
	regexes        []*regexp.Regexp
	stopwords      []string
}

// ruleSet is every rule, and the allowlists that apply to them all.
type ruleSet struct {
	rules  []*rule
	global []*allowlist
}

// rules are compiled when a text is first scanned, not when git-adr
// starts (every hook and command would pay for some 220 expressions).
var rules = sync.OnceValue(func() *ruleSet {
	s := &ruleSet{}
	for _, src := range [][]byte{gitleaksRules, ownRules} {
		if err := s.load(src); err != nil {
			// The files are embedded and tested: this is a build defect.
			panic(fmt.Sprintf("memory: secret rules: %v", err))
		}
	}
	return s
})

// load adds the rules of one file in gitleaks' format, as gitleaks'
// config.Translate reads them.
func (s *ruleSet) load(src []byte) error {
	var f ruleFile
	if line, deep := tomldepth.Check(src); deep {
		return fmt.Errorf("line %d: arrays or tables nested more than %d deep", line, tomldepth.Max)
	}
	if err := toml.Unmarshal(src, &f); err != nil {
		return err
	}
	targeted := map[string][]*allowlist{}
	globals := f.Allowlists
	if f.Allowlist != nil {
		globals = append(globals, f.Allowlist)
	}
	for _, d := range globals {
		a, err := compileAllowlist(d)
		if err != nil {
			return err
		}
		if len(d.TargetRules) == 0 {
			s.global = append(s.global, a)
		}
		for _, id := range d.TargetRules {
			targeted[id] = append(targeted[id], a)
		}
	}
	for _, d := range f.Rules {
		// A rule that needs a file path, or another rule's finding
		// nearby, never applies to a memory text alone.
		if d.Regex == "" || d.Path != "" || len(d.Required) > 0 || d.SkipReport {
			continue
		}
		re, err := regexp.Compile(d.Regex)
		if err != nil {
			return fmt.Errorf("rule %s: %w", d.ID, err)
		}
		r := &rule{id: d.ID, re: re, secretGroup: d.SecretGroup, entropy: d.Entropy}
		for _, k := range d.Keywords {
			r.keywords = append(r.keywords, strings.ToLower(k))
		}
		defs := d.Allowlists
		if d.Allowlist != nil {
			defs = append(defs, d.Allowlist)
		}
		for _, ad := range defs {
			a, err := compileAllowlist(ad)
			if err != nil {
				return fmt.Errorf("rule %s: %w", d.ID, err)
			}
			r.allow = append(r.allow, a)
		}
		r.allow = append(r.allow, targeted[d.ID]...)
		s.rules = append(s.rules, r)
	}
	return nil
}

func compileAllowlist(d *allowlistDef) (*allowlist, error) {
	a := &allowlist{and: strings.EqualFold(d.Condition, "AND"), target: d.RegexTarget,
		commits: len(d.Commits) > 0, paths: len(d.Paths) > 0}
	for _, x := range d.Regexes {
		re, err := regexp.Compile(x)
		if err != nil {
			return nil, err
		}
		a.regexes = append(a.regexes, re)
	}
	for _, w := range d.StopWords {
		a.stopwords = append(a.stopwords, strings.ToLower(w))
	}
	return a, nil
}

// allows reports whether the allowlist lets a finding pass, as gitleaks'
// checkFindingAllowed decides: target is what its regexes are matched
// against, the stop words are looked for in the secret.
func (a *allowlist) allows(secret, match, line string) bool {
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	regex := false
	if target != "" {
		for _, re := range a.regexes {
			if re.MatchString(target) {
				regex = true
				break
			}
		}
	}
	stop := false
	low := strings.ToLower(secret)
	for _, w := range a.stopwords {
		if secret != "" && strings.Contains(low, w) {
			stop = true
			break
		}
	}
	if !a.and {
		return regex || stop
	}
	var checks []bool
	if a.commits {
		checks = append(checks, false)
	}
	if a.paths {
		checks = append(checks, false)
	}
	if len(a.regexes) > 0 {
		checks = append(checks, regex)
	}
	if len(a.stopwords) > 0 {
		checks = append(checks, stop)
	}
	for _, c := range checks {
		if !c {
			return false
		}
	}
	return true
}

// Finding is a recognised secret. It never holds the secret itself.
type Finding struct {
	// Rule is the rule's ID ("github-pat", "aws-access-token").
	Rule string `json:"rule"`
	// What describes the format ("a GitHub personal access token").
	What string `json:"what"`
	// Field is "topic", "source" or "text".
	Field string `json:"field"`
	// Line and Column (1-based, in characters) locate the secret.
	Line   int `json:"line"`
	Column int `json:"column"`
}

// SecretError refuses text that holds secrets.
type SecretError struct {
	Findings []Finding
}

func (e *SecretError) Error() string {
	f := e.Findings[0]
	msg := fmt.Sprintf("the %s holds what looks like %s (rule %s) at line %d, column %d", f.Field, f.What, f.Rule, f.Line, f.Column)
	if n := len(e.Findings) - 1; n > 0 {
		msg += fmt.Sprintf(", and %d more", n)
	}
	return msg
}

// found is a finding before it is placed, with what gitleaks' filter
// compares.
type found struct {
	rule          string
	start, line   int
	secret, match string
}

// Scan returns the secrets recognised in a text, in order of position. It
// applies gitleaks' default rules as gitleaks' detector does for a text
// without a path (keywords, the secret group, the entropy floor, the global
// and per-rule allowlists, a generic finding dropped for a specific one on
// its line), then git-adr's own. Unlike gitleaks it honours no
// "gitleaks:allow" comment, and it does not decode base64, hex or percent
// encoded parts of the text.
func Scan(text string) []Finding {
	set := rules()
	low := strings.ToLower(text)
	var all []found
	for _, r := range set.rules {
		if len(r.keywords) > 0 && !containsAny(low, r.keywords) {
			continue
		}
		for _, m := range r.re.FindAllStringIndex(text, -1) {
			match := strings.Trim(text[m[0]:m[1]], "\n")
			start := m[0] + strings.Index(text[m[0]:m[1]], match)
			secret := match
			if groups := r.re.FindStringSubmatch(match); len(groups) >= 2 {
				if r.secretGroup > 0 {
					if len(groups) <= r.secretGroup {
						continue
					}
					secret = groups[r.secretGroup]
				} else {
					for _, g := range groups[1:] {
						if g != "" {
							secret = g
							break
						}
					}
				}
			}
			if r.entropy != 0 && entropy(secret) <= r.entropy {
				continue
			}
			if v := verify[r.id]; v != nil && !v(secret) {
				continue
			}
			line := lineAround(text, start, start+len(match))
			if allowed(set.global, secret, match, line) || allowed(r.allow, secret, match, line) {
				continue
			}
			all = append(all, found{rule: r.id, start: start, line: strings.Count(text[:start], "\n"), secret: secret, match: match})
		}
	}
	var out []Finding
	seen := map[[2]any]bool{}
	for _, f := range all {
		if genericShadowed(f, all) || seen[[2]any{f.rule, f.start}] {
			continue
		}
		seen[[2]any{f.rule, f.start}] = true
		line, col := position(text, f.start)
		w := what[f.rule]
		if w == "" {
			w = "a credential"
		}
		out = append(out, Finding{Rule: f.rule, What: w, Line: line, Column: col})
	}
	// Order by position, as a person reads.
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].Line < out[j].Line || out[i].Line == out[j].Line && out[i].Column < out[j].Column
	})
	return out
}

// genericShadowed reports, as gitleaks' filter does, a generic rule's
// finding whose secret a specific rule's finding on the same line holds.
func genericShadowed(f found, all []found) bool {
	if !strings.Contains(f.rule, "generic") {
		return false
	}
	for _, g := range all {
		if g.line == f.line && g.rule != f.rule && !strings.Contains(g.rule, "generic") && strings.Contains(g.secret, f.secret) {
			return true
		}
	}
	return false
}

func allowed(as []*allowlist, secret, match, line string) bool {
	for _, a := range as {
		if a.allows(secret, match, line) {
			return true
		}
	}
	return false
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// lineAround is the text of the lines a match spans.
func lineAround(text string, start, end int) string {
	a := strings.LastIndexByte(text[:start], '\n') + 1
	b := len(text)
	if i := strings.IndexByte(text[end:], '\n'); i >= 0 {
		b = end + i
	}
	return text[a:b]
}

// ScanFields scans every field and returns a *SecretError naming what it
// found, or nil.
func ScanFields(f Fields) error {
	var all []Finding
	for _, c := range []struct{ name, v string }{{"topic", f.Topic}, {"source", f.Source}, {"text", f.Text}} {
		for _, x := range Scan(c.v) {
			x.Field = c.name
			all = append(all, x)
		}
	}
	if len(all) == 0 {
		return nil
	}
	return &SecretError{Findings: all}
}

// position is the 1-based line and column (in characters) of a byte
// offset.
func position(text string, off int) (int, int) {
	before := text[:off]
	line := strings.Count(before, "\n") + 1
	if i := strings.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:]
	}
	return line, len([]rune(before)) + 1
}

// entropy is the Shannon entropy of s in bits per character, as gitleaks
// computes it (characters counted as runes, divided by the length in
// bytes).
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	for _, r := range s {
		counts[r]++
	}
	inv := 1 / float64(len(s))
	h := 0.0
	for _, c := range counts {
		p := float64(c) * inv
		h -= p * math.Log2(p)
	}
	return h
}
