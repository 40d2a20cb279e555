package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWithoutBlock(t *testing.T) {
	const file = `# team repositories

# payments: cards and refunds
[[repo]]
name = "payments"
path = "payments"

# ops
[[repo]]   # the on-call log
name = 'ops'
url = "https://example.com/ops.git"
ref = "main"

[[repo]]
name = "web"
path = "web"
`
	for name, want := range map[string]string{
		"payments": "# team repositories\n\n# ops\n[[repo]]   # the on-call log\nname = 'ops'\nurl = \"https://example.com/ops.git\"\nref = \"main\"\n\n[[repo]]\nname = \"web\"\npath = \"web\"\n",
		"OPS":      "# team repositories\n\n# payments: cards and refunds\n[[repo]]\nname = \"payments\"\npath = \"payments\"\n\n[[repo]]\nname = \"web\"\npath = \"web\"\n",
		"web":      "# team repositories\n\n# payments: cards and refunds\n[[repo]]\nname = \"payments\"\npath = \"payments\"\n\n# ops\n[[repo]]   # the on-call log\nname = 'ops'\nurl = \"https://example.com/ops.git\"\nref = \"main\"\n",
	} {
		got, ok := withoutBlock([]byte(file), name)
		if !ok || string(got) != want {
			t.Errorf("without %s (%v):\n%s\nwant:\n%s", name, ok, got, want)
		}
	}
	if _, ok := withoutBlock([]byte("repo = [{name = \"a\", path = \"a\"}]\n"), "a"); ok {
		t.Error("an inline array was edited")
	}
	if _, ok := withoutBlock([]byte(file), "nope"); ok {
		t.Error("a block that names another was taken")
	}
}

func TestRemoveRefusesWhatItCannotEdit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ws.toml")
	inline := "repo = [{name = \"a\", url = \"https://example.com/a.git\"}, {name = \"b\", url = \"https://example.com/b.git\"}]\n"
	os.WriteFile(p, []byte(inline), 0o644)
	if _, err := Remove(p, "a", "test"); err == nil || !strings.Contains(err.Error(), ErrNotEditable.Error()) {
		t.Fatalf("remove from an inline array: %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != inline {
		t.Fatalf("the file changed:\n%s", got)
	}
	os.WriteFile(p, []byte("[[repo]]\nname = \"a\"\nurl = \"https://example.com/a.git\"\n"), 0o644)
	if _, err := Remove(p, "a", "test"); err == nil || !strings.Contains(err.Error(), "only repository") {
		t.Fatalf("remove the only one: %v", err)
	}
	if _, err := os.Stat(p + ".lock"); !os.IsNotExist(err) {
		t.Fatalf("lock left: %v", err)
	}
}

// FuzzWithoutBlock: whatever the text, a removal takes out one run of
// whole lines and leaves the others as they were.
func FuzzWithoutBlock(f *testing.F) {
	f.Add("[[repo]]\nname = \"a\"\npath = \"a\"\n\n[[repo]]\nname = \"b\"\npath = \"b\"\n", "a")
	f.Add("# c\n[[repo]] # x\nname='b'\n[other]\nk=1\n", "B")
	f.Add("[[repo]]\nname = \"a\"\n[[repo.x]]\n", "a")
	f.Fuzz(func(t *testing.T, text, name string) {
		out, ok := withoutBlock([]byte(text), name)
		if !ok {
			return
		}
		if len(out) >= len(text) {
			t.Fatalf("nothing removed: %q", out)
		}
		// out is a prefix of text and a suffix of it, each of whole lines.
		cut := 0
		for cut < len(out) && out[cut] == text[cut] {
			cut++
		}
		rest := text[len(text)-(len(out)-cut):]
		if string(out[cut:]) != rest {
			t.Fatalf("%q is not %q less one run of lines", out, text)
		}
	})
}
