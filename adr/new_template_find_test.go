package adr

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

func TestFindTemplate(t *testing.T) {
	wt := fstest.MapFS{
		"doc/adr/0001-a.md":             {Data: []byte("# 1. A\n\n## Status\n\nAccepted\n")},
		"doc/adr/templates/template.md": {Data: []byte("# NUMBER. TITLE\n\nadr-tools\n")},
		"tmpl/mine.md":                  {Data: []byte("# mine\n")},
	}
	l, err := Load(wt, LoadOptions{Roots: []string{"doc/adr"}})
	if err != nil {
		t.Fatal(err)
	}
	root := l.Roots[0]
	rel := func(name string) (string, bool) {
		if strings.HasPrefix(name, "/repo/") {
			return strings.TrimPrefix(name, "/repo/"), true
		}
		return "", false
	}
	outside := func(name string) ([]byte, error) { return []byte("# outside " + name + "\n"), nil }
	src := TemplateSources{WorkTree: wt, Rel: rel, ReadOutside: outside}
	if got, err := FindTemplate(root, src); err != nil || !strings.Contains(got, "adr-tools") {
		t.Errorf("adr-tools template = %q, %v", got, err)
	}
	src.Env = "/elsewhere/t.md"
	if got, err := FindTemplate(root, src); err != nil || got != "# outside /elsewhere/t.md\n" {
		t.Errorf("$ADR_TEMPLATE = %q, %v", got, err)
	}
	src.Confined = true
	var te *TemplateError
	if _, err := FindTemplate(root, src); !errors.As(err, &te) || !strings.Contains(te.Msg, "outside the repository") {
		t.Errorf("confined $ADR_TEMPLATE outside the repository = %v", err)
	}
	src.Env = "/repo/tmpl/mine.md"
	if got, err := FindTemplate(root, src); err != nil || got != "# mine\n" {
		t.Errorf("confined $ADR_TEMPLATE inside = %q, %v", got, err)
	}
	src.Env = "/repo/tmpl/missing.md"
	if _, err := FindTemplate(root, src); !errors.As(err, &te) || te.Msg != `ADR_TEMPLATE "/repo/tmpl/missing.md" cannot be read: `+fs.ErrNotExist.Error() {
		t.Errorf("missing $ADR_TEMPLATE = %v", err)
	}
	root.Template = "tmpl/gone.md"
	if _, err := FindTemplate(root, src); !errors.As(err, &te) || !strings.Contains(te.Msg, `template "tmpl/gone.md" cannot be read`) {
		t.Errorf("configured template missing = %v", err)
	}
	bare, _ := Load(fstest.MapFS{"doc/adr/0001-a.md": wt["doc/adr/0001-a.md"]}, LoadOptions{Roots: []string{"doc/adr"}})
	if got, err := FindTemplate(bare.Roots[0], TemplateSources{WorkTree: wt}); err != nil || !strings.Contains(got, "adr-tools") {
		t.Errorf("template beside the records = %q, %v", got, err)
	}
	if got, err := FindTemplate(bare.Roots[0], TemplateSources{WorkTree: fstest.MapFS{}}); err != nil || got != "" {
		t.Errorf("no template = %q, %v; want the built-in one", got, err)
	}
}
