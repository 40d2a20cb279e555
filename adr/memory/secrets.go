package memory

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
)

// A secret rule recognises one credential format. The formats and their
// names are those of gitleaks' default rules (github.com/gitleaks/gitleaks,
// config/gitleaks.toml) that have a fixed, distinctive shape: a prefix, a
// length, an alphabet, often a checksum-like marker, and a minimum Shannon
// entropy of the secret part so that repetitive placeholders pass. The
// rules run locally on the text; nothing is looked up or verified.
type rule struct {
	// id is the gitleaks rule ID (or git-adr's own, for url-credentials).
	id, what string
	re       *regexp.Regexp
	// group is the submatch that is the secret (0: the whole match).
	group int
	// entropy is the minimum Shannon entropy, in bits per character, of
	// the secret part.
	entropy float64
	// allow refuses nothing whose secret part it matches (documentation
	// examples such as AWS's AKIA...EXAMPLE keys).
	allow *regexp.Regexp
	// digit requires a digit in the secret part (generic rules: an English
	// phrase after "password:" is not a secret).
	digit bool
}

// end is what may follow a token: a quote, space, semicolon, escaped
// newline or the end of the text.
const end = `(?:[\x60'"\s;,)\]}>]|\\[nr]|$)`

// rules are compiled when a note is first scanned, not when git-adr starts
// (every hook and command would pay for them).
var rules = sync.OnceValue(func() []rule {
	return []rule{
		{id: "private-key", what: "a private key",
			re: regexp.MustCompile(`(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----\s*([A-Za-z0-9+/=\s:,-]{32,})`), group: 1},
		{id: "age-secret-key", what: "an age secret key",
			re: regexp.MustCompile(`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`)},
		{id: "aws-access-token", what: "an AWS access key ID",
			re: regexp.MustCompile(`\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b`), group: 1, entropy: 3,
			allow: regexp.MustCompile(`EXAMPLE$`)},
		{id: "gcp-api-key", what: "a Google Cloud API key",
			re: regexp.MustCompile(`\b(AIza[\w-]{35})` + end), group: 1, entropy: 4},
		{id: "github-pat", what: "a GitHub personal access token",
			re: regexp.MustCompile(`\bghp_[0-9A-Za-z]{36}\b`), entropy: 3},
		{id: "github-oauth", what: "a GitHub OAuth access token",
			re: regexp.MustCompile(`\bgho_[0-9A-Za-z]{36}\b`), entropy: 3},
		{id: "github-app-token", what: "a GitHub App token",
			re: regexp.MustCompile(`\bgh[us]_[0-9A-Za-z]{36}\b`), entropy: 3},
		{id: "github-refresh-token", what: "a GitHub refresh token",
			re: regexp.MustCompile(`\bghr_[0-9A-Za-z]{36}\b`), entropy: 3},
		{id: "github-fine-grained-pat", what: "a GitHub fine-grained personal access token",
			re: regexp.MustCompile(`\bgithub_pat_\w{82}`), entropy: 3},
		{id: "gitlab-pat", what: "a GitLab personal access token",
			re: regexp.MustCompile(`\bglpat-[\w-]{20}`), entropy: 3},
		{id: "gitlab-ptt", what: "a GitLab pipeline trigger token",
			re: regexp.MustCompile(`\bglptt-[0-9a-f]{40}`), entropy: 3},
		{id: "gitlab-rrt", what: "a GitLab runner registration token",
			re: regexp.MustCompile(`\bGR1348941[\w-]{20}`), entropy: 3},
		{id: "slack-bot-token", what: "a Slack bot token",
			re: regexp.MustCompile(`\bxoxb-[0-9]{10,13}-[0-9]{10,13}[A-Za-z0-9-]*`), entropy: 3},
		{id: "slack-user-token", what: "a Slack user token",
			re: regexp.MustCompile(`\bxox[pe](?:-[0-9]{10,13}){3}-[A-Za-z0-9-]{28,34}`), entropy: 2},
		{id: "slack-webhook-url", what: "a Slack webhook URL",
			re: regexp.MustCompile(`hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/]{43,56})`), group: 1},
		{id: "stripe-access-token", what: "a Stripe API key",
			re: regexp.MustCompile(`\b((?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,99})` + end), group: 1, entropy: 2},
		{id: "openai-api-key", what: "an OpenAI API key",
			re: regexp.MustCompile(`\b(sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{58,74}T3BlbkFJ[A-Za-z0-9_-]{58,74}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})` + end), group: 1, entropy: 3},
		{id: "anthropic-api-key", what: "an Anthropic API key",
			re: regexp.MustCompile(`\b(sk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{93}AA)` + end), group: 1},
		{id: "huggingface-access-token", what: "a Hugging Face access token",
			re: regexp.MustCompile(`\b(hf_[A-Za-z]{34})` + end), group: 1, entropy: 2},
		{id: "npm-access-token", what: "an npm access token",
			re: regexp.MustCompile(`(?i)\b(npm_[a-z0-9]{36})` + end), group: 1, entropy: 2},
		{id: "pypi-upload-token", what: "a PyPI upload token",
			re: regexp.MustCompile(`pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}`), entropy: 3},
		{id: "sendgrid-api-token", what: "a SendGrid API key",
			re: regexp.MustCompile(`\b(SG\.[A-Za-z0-9=_.-]{66})` + end), group: 1, entropy: 2},
		{id: "twilio-api-key", what: "a Twilio API key",
			re: regexp.MustCompile(`\bSK[0-9a-fA-F]{32}\b`), entropy: 3},
		{id: "digitalocean-pat", what: "a DigitalOcean token",
			re: regexp.MustCompile(`\b(do[opr]_v1_[a-f0-9]{64})` + end), group: 1, entropy: 3},
		{id: "shopify-access-token", what: "a Shopify token",
			re: regexp.MustCompile(`\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`), entropy: 2},
		{id: "databricks-api-token", what: "a Databricks API token",
			re: regexp.MustCompile(`\b(dapi[a-f0-9]{32}(?:-\d)?)` + end), group: 1, entropy: 3},
		{id: "vault-service-token", what: "a HashiCorp Vault token",
			re: regexp.MustCompile(`\b(hv[sb]\.[\w-]{90,300})` + end), group: 1, entropy: 3.5},
		{id: "jwt", what: "a JSON Web Token",
			re: regexp.MustCompile(`\b(ey[A-Za-z0-9]{17,}\.ey[A-Za-z0-9/\\_-]{17,}\.(?:[A-Za-z0-9/\\_-]{10,}={0,2})?)` + end), group: 1, entropy: 3},
		// A password in a URL: scheme://user:password@host.
		{id: "url-credentials", what: "a password in a URL",
			re: regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s/:@]{1,64}:([^\s/@]{6,128})@[\w.-]+`), group: 1, entropy: 3, digit: true},
		// An assignment to a credential-like name: key = value, key: value.
		{id: "generic-api-key", what: "a credential assigned to a key, password, secret or token",
			re:    regexp.MustCompile(`(?i)(?:access[_.-]?key|api[_.-]?key|apikey|auth[_.-]?token|access[_.-]?token|client[_.-]?secret|credentials?|passw(?:or)?d|pwd|secret|token)(?:[\w.-]{0,20})[\s'"]{0,3}(?:=|:=|:|=>|,)[\x60'"\s]{0,5}([\w.=+/-]{12,150})` + end),
			group: 1, entropy: 3.5, digit: true,
			allow: regexp.MustCompile(`(?i)^(?:\$\{?[\w.]+\}?|\{\{.*\}\}|<[^>]*>|%\w+%|(?:x+|\*+|\.+)|.*(?:example|changeme|placeholder|redacted|your[_-]).*)$`)},
	}
})

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

// Scan returns the secrets recognised in a text, in order of position.
func Scan(text string) []Finding {
	var out []Finding
	taken := map[int]bool{} // start offsets already reported by a rule
	for _, r := range rules() {
		for _, m := range r.re.FindAllStringSubmatchIndex(text, -1) {
			start, stop := m[2*r.group], m[2*r.group+1]
			if start < 0 || taken[start] {
				continue
			}
			secret := text[start:stop]
			if r.id == "private-key" {
				secret = strings.Join(strings.Fields(secret), "")
			}
			if r.entropy > 0 && entropy(secret) < r.entropy {
				continue
			}
			if r.digit && !strings.ContainsAny(secret, "0123456789") {
				continue
			}
			if r.allow != nil && r.allow.MatchString(secret) {
				continue
			}
			taken[start] = true
			line, col := position(text, m[0])
			out = append(out, Finding{Rule: r.id, What: r.what, Line: line, Column: col})
		}
	}
	// Order by position, as a person reads.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && (out[j].Line < out[j-1].Line || out[j].Line == out[j-1].Line && out[j].Column < out[j-1].Column); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
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

// entropy is the Shannon entropy of s in bits per character.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	h := 0.0
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}
