package evidence

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// KindMemory is the kind of a unit that shows a memory item: a note a
// person saved with `git adr memory`, never a decision.
const KindMemory = "memory"

// MemorySource supplies memory items (git adr memory) to task answers. A
// nil source means no memory is shown.
type MemorySource interface {
	// Version identifies the memory's current state ("" when there is
	// none): a change makes outstanding cursors stale.
	Version() string
	// Relevant returns at most n enabled items relevant to a task, best
	// first.
	Relevant(task string, n int) ([]MemoryNote, error)
}

// MemoryNote is a memory item offered to an answer.
type MemoryNote struct {
	ID, Topic, Source, Text string
	// Path says where the item is stored
	// ("refs/adr/memory:items/m-3f2a9c1d.json", for git show).
	Path string
}

// MemoryUsed names a memory item a response includes.
type MemoryUsed struct {
	ID     string `json:"id"`
	Topic  string `json:"topic"`
	Source string `json:"source"`
}

// memoryRole labels a memory unit so that it cannot be taken for a
// decision.
const memoryRole = "memory (a note saved with git adr memory, not a decision)"

// memorySlots is how many units of a task answer memory items may take.
func memorySlots(maxUnits int) int { return max(1, min(2, maxUnits/4)) }

// addMemory adds the memory items relevant to the task. They take the
// last slots of the first page before the source excerpts, so that the
// decisions lead, and count against the same unit and character budget.
// They are never essential and never change the confidence, which is
// about decisions.
func (s *Service) addMemory(p *plan, req Request) {
	if s.Memory == nil {
		return
	}
	notes, err := s.Memory.Relevant(req.Task, memorySlots(req.MaxUnits))
	if err != nil {
		p.warnings = append(p.warnings, fmt.Sprintf("memory not used: %v", err))
		return
	}
	if len(notes) == 0 {
		return
	}
	var mem []item
	for i := range notes {
		mem = append(mem, item{mem: &notes[i], role: memoryRole})
	}
	end := min(len(p.items), req.MaxUnits)
	tail := 0
	for tail < end && p.items[end-1-tail].src != nil {
		tail++
	}
	at := max(0, min(end-tail, req.MaxUnits-tail-len(mem)))
	items := append([]item(nil), p.items[:at]...)
	items = append(items, mem...)
	p.items = append(items, p.items[at:]...)
}

// memoryUnit renders a memory item as a unit.
func memoryUnit(it item) Unit {
	n := it.mem
	return Unit{ID: n.ID, Path: n.Path, Kind: KindMemory, Topic: n.Topic, Source: n.Source, Role: it.role, Text: n.Text}
}

// memoryUsed lists the memory items among units.
func memoryUsed(units []Unit) []MemoryUsed {
	var out []MemoryUsed
	for _, u := range units {
		if u.Kind == KindMemory {
			out = append(out, MemoryUsed{ID: u.ID, Topic: u.Topic, Source: u.Source})
		}
	}
	return out
}

// memoryVersion is the memory's version, "" without a source.
func (s *Service) memoryVersion() string {
	if s.Memory == nil {
		return ""
	}
	return s.Memory.Version()
}

// writeMemoryUnit prints a memory unit for people: its labels first, so
// that it reads as a saved note, then its text.
func writeMemoryUnit(b *strings.Builder, i int, u Unit) {
	fmt.Fprintf(b, "\n[%d] %s  memory  topic %s, source %s  %s\n", i+1, adr.Escape(u.ID), adr.Escape(u.Topic), adr.Escape(u.Source), adr.Escape(u.Path))
	fmt.Fprintf(b, "    %s\n", adr.Escape(u.Role))
	text := adr.EscapeBody(u.Text)
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
}

// writeMemoryUsed says which memory items a text response includes.
func writeMemoryUsed(b *strings.Builder, used []MemoryUsed) {
	for _, m := range used {
		fmt.Fprintf(b, "memory used: %s (topic %s, source %s)\n", adr.Escape(m.ID), adr.Escape(m.Topic), adr.Escape(m.Source))
	}
}
