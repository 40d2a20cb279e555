package benchkit

import "testing"

func TestReplaceRegion(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"", "<!-- bench:start -->\nT\n<!-- bench:end -->\n"},
		{"# B\n\ntext", "# B\n\ntext\n\n<!-- bench:start -->\nT\n<!-- bench:end -->\n"},
		{"a\n<!-- bench:start -->\nold\nold\n<!-- bench:end -->\nz\n", "a\n<!-- bench:start -->\nT\n<!-- bench:end -->\nz\n"},
		{"see `<!-- bench:start -->`\n<!-- bench:start -->\nold\n<!-- bench:end -->", "see `<!-- bench:start -->`\n<!-- bench:start -->\nT\n<!-- bench:end -->"},
		{"x\n<!-- bench-hooks:start -->\nold\n<!-- bench-hooks:end -->\n<!-- bench:start -->\no\n<!-- bench:end -->\n", "x\n<!-- bench-hooks:start -->\nold\n<!-- bench-hooks:end -->\n<!-- bench:start -->\nT\n<!-- bench:end -->\n"},
	} {
		got, err := ReplaceRegion(tc.doc, "bench", "T\n")
		if err != nil || got != tc.want {
			t.Errorf("ReplaceRegion(%q) = %q, %v; want %q", tc.doc, got, err, tc.want)
		}
	}
	if _, err := ReplaceRegion("<!-- bench:end -->\n<!-- bench:start -->\n", "bench", "T"); err == nil {
		t.Error("markers in the wrong order: no error")
	}
}
