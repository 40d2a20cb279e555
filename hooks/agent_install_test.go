package hooks

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestInstallSettings(t *testing.T) {
	for _, agent := range []Agent{Claude, Codex} {
		s, _ := SetupFor(agent)
		// Into nothing, then again (no change), then out: nothing left.
		got, changed, err := s.Install(nil)
		if err != nil || !changed || !strings.Contains(string(got), "git adr guard --hook "+string(agent)+" || {") || !strings.Contains(string(got), `"matcher": "*"`) {
			t.Fatalf("%s: install into nothing: %s %v %v", agent, got, changed, err)
		}
		if strings.Contains(string(got), `\u003e`) {
			t.Errorf("%s: HTML-escaped command: %s", agent, got)
		}
		if again, changed, _ := s.Install(got); changed || string(again) != string(got) {
			t.Errorf("%s: second install changed the file", agent)
		}
		if !s.Installed(got) {
			t.Errorf("%s: not seen as installed", agent)
		}
		if out, removed, err := s.Uninstall(got); err != nil || !removed || out != nil {
			t.Errorf("%s: uninstall of a file holding only the guard: %q %v %v", agent, out, removed, err)
		}
		// Beside a team's settings and hooks, which keep their order.
		team := `{
  "permissions": {"allow": ["Bash(go test:*)"]},
  "hooks": {
    "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "gofmt -w"}]}],
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]
  },
  "env": {"A": "1"}
}
`
		got, changed, err = s.Install([]byte(team))
		if err != nil || !changed {
			t.Fatalf("%s: install beside a team's settings: %v", agent, err)
		}
		g := string(got)
		if !(strings.Index(g, `"permissions"`) < strings.Index(g, `"hooks"`) && strings.Index(g, `"hooks"`) < strings.Index(g, `"env"`)) ||
			!strings.Contains(g, "./check.sh") || !strings.Contains(g, "gofmt -w") || strings.Index(g, "./check.sh") > strings.Index(g, "adr guard") {
			t.Errorf("%s: the team's settings were not kept in order:\n%s", agent, g)
		}
		out, removed, err := s.Uninstall(got)
		if err != nil || !removed || !jsonEqual(out, []byte(team)) {
			t.Errorf("%s: uninstall did not give back the team's settings:\n%s", agent, out)
		}
		// A hook someone added to the guard's own entry stays.
		shared := strings.Replace(g, `"timeout": 30`, `"timeout": 30}, {"type": "command", "command": "./audit.sh"`, 1)
		out, removed, _ = s.Uninstall([]byte(shared))
		if !removed || !strings.Contains(string(out), "./audit.sh") || strings.Contains(string(out), "adr guard") {
			t.Errorf("%s: uninstall with a shared entry:\n%s", agent, out)
		}
		// Not installed: untouched.
		if out, removed, _ := s.Uninstall([]byte(team)); removed || string(out) != team {
			t.Errorf("%s: uninstall of a file without the guard changed it", agent)
		}
		if _, _, err := s.Install([]byte("[1, 2]")); err == nil {
			t.Errorf("%s: installed into a JSON array", agent)
		}
	}
}

func TestInstallPlugin(t *testing.T) {
	s, _ := SetupFor(OpenCode)
	got, changed, err := s.Install(nil)
	if err != nil || !changed || string(got) != OpenCodePlugin || !strings.HasPrefix(OpenCodePlugin, pluginHeader) {
		t.Fatalf("install: %v %v", changed, err)
	}
	if _, changed, _ := s.Install(got); changed {
		t.Error("second install changed the plugin")
	}
	old := pluginHeader + " (an older version)\n"
	if got, changed, _ := s.Install([]byte(old)); !changed || string(got) != OpenCodePlugin {
		t.Error("an older plugin was not upgraded")
	}
	if _, _, err := s.Install([]byte("export const Mine = async () => ({})\n")); !errors.Is(err, ErrForeign) {
		t.Errorf("a foreign plugin: %v", err)
	}
	if out, removed, _ := s.Uninstall(got); !removed || out != nil {
		t.Error("uninstall kept the plugin")
	}
	if out, removed, _ := s.Uninstall([]byte("x")); removed || string(out) != "x" {
		t.Error("uninstall removed a foreign file")
	}
}

// The plugin shipped in docs is the one install writes.
func TestPluginInDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/integrations/opencode.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```js\n"+OpenCodePlugin+"```") {
		t.Error("docs/integrations/opencode.md does not hold hooks/opencode-plugin.js as it is")
	}
}
