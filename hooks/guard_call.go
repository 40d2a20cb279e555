package hooks

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/git-adr/git-adr/adr/guard"
)

// MaxGuardInput bounds what GuardCall reads of a hook's input: a tool
// call is kilobytes, and one past this is refused, not read into memory.
const MaxGuardInput = 32 << 20

// GuardCall judges one tool call an agent's hook sent on input and
// returns the answer in the agent's protocol; ok is false for an event
// that is not a call about to run (nothing to answer). The policy is that
// of the repository holding the call's working directory, or dir when
// the call names none that exists. It never fails open: an input it
// cannot read or decode, a policy it cannot read or a panic (reading
// included) is answered with [Failure], a refusal in guard mode.
func GuardCall(agent Agent, input io.Reader, dir string) (a Answer, ok bool) {
	mode := guard.Guard // until the mode is known, a failure refuses
	defer func() {
		if p := recover(); p != nil {
			a = Failure(agent, mode, fmt.Errorf("internal error: %v", p))
			a.Stderr = append(a.Stderr, debug.Stack()...)
			ok = true
		}
	}()
	data, readErr := io.ReadAll(io.LimitReader(input, MaxGuardInput+1))
	in, derr := Decode(agent, data)
	if readErr != nil {
		derr = fmt.Errorf("reading the hook input: %v", readErr)
	}
	cwd := in.Request.Cwd
	if fi, err := os.Stat(cwd); cwd == "" || !filepath.IsAbs(cwd) || err != nil || !fi.IsDir() {
		cwd = dir
		in.Request.Cwd = cwd
	}
	p, closeRepo := LoadPolicy(cwd, string(agent), in.Request.Session)
	defer closeRepo()
	mode = p.Mode()
	if derr != nil {
		return Failure(agent, mode, derr), true
	}
	if in.Event != "" && in.Event != "PreToolUse" {
		return Answer{}, false // only calls about to run are judged
	}
	return in.Answer(p.Judge(in.Request)), true
}
