package memory

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// fake returns n characters of alphabet chosen by a seeded source: keys
// of real formats with real-looking entropy, made at run time so that this
// file holds no string a secret scanner would flag.
func fake(alphabet string, n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 42))
	var b strings.Builder
	for range n {
		b.WriteByte(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

const (
	alnum   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	hexLow  = "0123456789abcdef"
	upper27 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b64     = alnum + "+/"
	urlSafe = alnum + "_-"
	letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	bech32  = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
	digits  = "0123456789"
)

// cat joins pieces, so that no literal in this file is a whole key.
func cat(parts ...string) string { return strings.Join(parts, "") }

func TestScanRefusesRealFormats(t *testing.T) {
	pem := func(kind string) string {
		return cat("-----BEGIN ", kind, "PRIVATE KEY-----\n", fake(b64, 64, 1), "\n", fake(b64, 64, 2), "\n-----END ", kind, "PRIVATE KEY-----")
	}
	cases := []struct{ rule, text string }{
		{"private-key", "deploy with " + pem("OPENSSH ")},
		{"private-key", pem("RSA ")},
		{"private-key", pem("")},
		{"age-secret-key", cat("AGE-SECRET-KEY-1", fake(bech32, 58, 3))},
		{"aws-access-token", cat("the key is AK", "IA", fake(upper27, 16, 4))},
		{"aws-access-token", cat("AS", "IA", fake(upper27, 16, 5), " for the session")},
		{"gcp-api-key", cat("AI", "za", fake(urlSafe, 35, 6))},
		{"github-pat", cat("gh", "p_", fake(alnum, 36, 7))},
		{"github-oauth", cat("gh", "o_", fake(alnum, 36, 8))},
		{"github-app-token", cat("gh", "s_", fake(alnum, 36, 9))},
		{"github-app-token", cat("gh", "u_", fake(alnum, 36, 10))},
		{"github-refresh-token", cat("gh", "r_", fake(alnum, 36, 11))},
		{"github-fine-grained-pat", cat("github", "_pat_", fake(alnum+"_", 82, 12))},
		{"gitlab-pat", cat("gl", "pat-", fake(urlSafe, 20, 13))},
		{"gitlab-ptt", cat("gl", "ptt-", fake(hexLow, 40, 14))},
		{"gitlab-rrt", cat("GR134", "8941", fake(urlSafe, 20, 15))},
		{"slack-bot-token", cat("xo", "xb-", fake(digits, 12, 16), "-", fake(digits, 13, 17), "-", fake(alnum, 24, 18))},
		{"slack-user-token", cat("xo", "xp-", fake(digits, 12, 19), "-", fake(digits, 12, 20), "-", fake(digits, 12, 21), "-", fake(hexLow, 32, 22))},
		{"slack-webhook-url", cat("https://hooks.", "slack.com/services/", fake(alnum, 9, 23), "/", fake(alnum, 11, 24), "/", fake(alnum, 24, 25))},
		{"stripe-access-token", cat("sk", "_live_", fake(alnum, 24, 26))},
		{"stripe-access-token", cat("rk", "_test_", fake(alnum, 30, 27))},
		{"openai-api-key", cat("sk-", fake(alnum, 20, 28), "T3Blbk", "FJ", fake(alnum, 20, 29))},
		{"openai-api-key", cat("sk-proj-", fake(urlSafe, 74, 30), "T3Blbk", "FJ", fake(urlSafe, 74, 31))},
		{"anthropic-api-key", cat("sk-ant-", "api03-", fake(urlSafe, 93, 32), "AA")},
		{"huggingface-access-token", cat("hf", "_", fake(letters, 34, 33))},
		{"npm-access-token", cat("np", "m_", fake(alnum, 36, 34))},
		{"pypi-upload-token", cat("pypi-AgEIcHlwaS5", "vcmc", fake(urlSafe, 60, 35))},
		{"sendgrid-api-token", cat("SG", ".", fake(urlSafe, 22, 36), ".", fake(urlSafe, 43, 37))},
		{"twilio-api-key", cat("S", "K", fake(hexLow, 32, 38))},
		{"digitalocean-pat", cat("do", "p_v1_", fake(hexLow, 64, 39))},
		{"shopify-access-token", cat("shp", "at_", fake(hexLow, 32, 40))},
		{"databricks-api-token", cat("da", "pi", fake(hexLow, 32, 41))},
		{"vault-service-token", cat("hv", "s.", fake(urlSafe, 95, 42))},
		{"jwt", cat("e", "yJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".", "e", "yJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9", ".", fake(urlSafe, 43, 43))},
		{"url-credentials", cat("postgres://app:", fake(alnum, 14, 44), "@db.internal:5432/orders")},
		{"generic-api-key", cat(`api_key = "`, fake(alnum, 24, 45), `"`)},
		{"generic-api-key", cat("DB_PASSWORD=", fake(alnum, 16, 46))},
		{"generic-api-key", cat("client_secret: ", fake(alnum, 32, 47))},
		// The formats issue 30 found accepted.
		{"url-credentials", cat("redis://:", fake(alnum, 20, 70), "@cache.internal:6379/0")},
		{"url-credentials", cat("mysql://user:", fake("abcdefghijklmnopqrstuvwxyz", 12, 71), "@10.0.0.5/db")},
		{"generic-api-key", cat("DefaultEndpointsProtocol=https;AccountName=orders;AccountKey=", fake(b64, 86, 72), "==;EndpointSuffix=core.windows.net")},
		{"http-basic-auth", cat("Authorization: Basic ", base64.StdEncoding.EncodeToString([]byte("admin:"+fake(alnum, 14, 73))))},
		{"http-basic-auth", cat(`{"headers": {"Authorization": "Basic `, base64.StdEncoding.EncodeToString([]byte("ci:"+fake(alnum, 10, 74))), `"}}`)},
		{"private-key", gcpServiceAccount()},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			got := Scan(c.text)
			if len(got) == 0 {
				t.Fatalf("Scan(%q) found nothing, want %s", c.text, c.rule)
			}
			if got[0].Rule != c.rule {
				t.Errorf("Scan(%q) = rule %s, want %s", c.text, got[0].Rule, c.rule)
			}
			err := ScanFields(Fields{Topic: "t", Source: "s", Text: c.text})
			var se *SecretError
			if !errors.As(err, &se) {
				t.Fatalf("ScanFields = %v, want a *SecretError", err)
			}
			// The message names the rule, never the secret.
			msg := err.Error()
			if !strings.Contains(msg, "rule "+c.rule) {
				t.Errorf("message %q does not name rule %s", msg, c.rule)
			}
			for _, w := range strings.Fields(c.text) {
				if len(w) >= 12 && strings.Contains(msg, w) {
					t.Errorf("message %q repeats the secret %q", msg, w)
				}
			}
		})
	}
}

func TestScanPassesNearMisses(t *testing.T) {
	cases := []struct{ why, text string }{
		{"AWS's documentation example key", "AKIAIOSFODNN7EXAMPLE is the key in AWS's docs"},
		{"a repetitive AWS-shaped placeholder", cat("AKIA", strings.Repeat("A", 16))},
		{"a GitHub prefix one character short", cat("gh", "p_", fake(alnum, 35, 50))},
		{"a GitHub-shaped placeholder", cat("gh", "p_", strings.Repeat("x", 36))},
		{"a PEM header without a key", "private keys are PEM files (-----BEGIN PRIVATE KEY-----) kept in the vault"},
		{"a password rule in prose", "password: see the team vault, never in the repository"},
		{"a variable reference", "token = ${GITHUB_TOKEN}"},
		{"a template placeholder", "api_key: <your-api-key-here>"},
		{"a letters-only value", "token: abcdefghijklmnopqr"},
		{"a long number", "password_min_length = 12345678901234"},
		{"prose about secrets", "the secret is rotated every 90 days by the platform team"},
		{"a Stripe prefix alone", "sk_live_ keys are production keys; sk_test_ keys are for CI"},
		{"a git commit hash", "fixed in 3f2a9c1d4b5e6f708192a3b4c5d6e7f8091a2b3c"},
		{"a UUID", "tenant 123e4567-e89b-12d3-a456-426614174000"},
		{"a URL without credentials", "postgres://localhost:5432/orders"},
		{"a URL with a dictionary password", "https://user:password@example.com"},
		{"a truncated JWT", "tokens start with eyJhbGciOi"},
		{"a SKU", "SKU SK12345 ships in May"},
		{"an OpenAI-style prefix without the marker", cat("sk-", fake(alnum, 48, 51))},
		{"an image digest", "sha256:" + fake(hexLow, 64, 52)},
	}
	for _, c := range cases {
		if got := Scan(c.text); len(got) > 0 {
			t.Errorf("%s: Scan(%q) = %+v, want nothing", c.why, c.text, got)
		}
	}
}

func TestScanPositionsAndFields(t *testing.T) {
	key := cat("gh", "p_", fake(alnum, 36, 60))
	err := ScanFields(Fields{Topic: "ci", Source: "chat", Text: "first line\n  token is " + key})
	var se *SecretError
	if !errors.As(err, &se) {
		t.Fatalf("ScanFields = %v", err)
	}
	f := se.Findings[0]
	if f.Field != "text" || f.Line != 2 || f.Column != 12 {
		t.Errorf("finding = %+v, want text line 2 column 12", f)
	}
	err = ScanFields(Fields{Topic: "ci", Source: "from " + key, Text: "x"})
	if !errors.As(err, &se) || se.Findings[0].Field != "source" {
		t.Errorf("a secret in the source = %v, want a finding in the source", err)
	}
}

func FuzzScan(f *testing.F) {
	f.Add("token = " + fake(alnum, 20, 1))
	f.Add("-----BEGIN PRIVATE KEY-----\n" + fake(b64, 80, 2))
	f.Add("postgres://a:" + fake(alnum, 12, 3) + "@h")
	f.Fuzz(func(t *testing.T, s string) {
		lines := strings.Count(s, "\n") + 1
		for _, x := range Scan(s) {
			if x.Line < 1 || x.Line > lines || x.Column < 1 || x.Rule == "" {
				t.Fatalf("finding %+v out of range for %q", x, s)
			}
		}
	})
}

// gcpServiceAccount is a Google Cloud service-account key file as the
// console downloads it: JSON whose private_key holds a PEM key with its
// line ends escaped.
func gcpServiceAccount() string {
	return cat(`{
  "type": "service_account",
  "project_id": "orders-prod",
  "private_key_id": "`, fake(hexLow, 40, 80), `",
  "private_key": "-----BEGIN PRIVATE KEY-----\n`, fake(b64, 64, 81), `\n`, fake(b64, 64, 82), `\n-----END PRIVATE KEY-----\n",
  "client_email": "orders@orders-prod.iam.gserviceaccount.com",
  "client_id": "`, fake(digits, 21, 83), `"
}`)
}

// TestEmbeddedRules: gitleaks' rules are embedded unchanged (the hash is
// that of config/gitleaks.toml of GitleaksVersion; scripts/
// update-gitleaks-rules changes both), and every rule that applies to a
// text compiles and is used.
func TestEmbeddedRules(t *testing.T) {
	const want = "e163e53b9e7e8a8511e77271e2b323ed057759542a6d988258afe3a1fa329caf" // v8.30.1
	if got := fmt.Sprintf("%x", sha256.Sum256(gitleaksRules)); got != want {
		t.Errorf("rules/gitleaks.toml has sha256 %s, want %s (gitleaks %s unchanged)", got, want, GitleaksVersion)
	}
	set := rules()
	ids := map[string]bool{}
	for _, r := range set.rules {
		ids[r.id] = true
	}
	// 222 rules, less the ones that need a file path (pkcs12-file) or
	// have no pattern; plus git-adr's own two.
	if len(set.rules) < 215 || !ids["url-credentials"] || !ids["http-basic-auth"] || !ids["private-key"] || !ids["generic-api-key"] {
		t.Errorf("%d rules loaded", len(set.rules))
	}
	if len(set.global) == 0 {
		t.Error("gitleaks' global allowlist was not loaded")
	}
}

func BenchmarkScan(b *testing.B) {
	text := "Orders are stored in PostgreSQL; the API key rotates monthly. See postgres://localhost:5432/orders and the runbook."
	rules()
	for b.Loop() {
		Scan(text)
	}
}
