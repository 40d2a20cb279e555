package adr

import (
	"bytes"
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
	"go.yaml.in/yaml/v3"
)

// Front matter: a line scan keeps each key's byte span (edits replace
// exactly those bytes), a YAML parser then settles the values (quoting,
// block lists, multi-line values), and the known keys set the record's
// fields (status, date, domains, title, relations, scope, review date).

// fmEntry is one top-level front matter key.
type fmEntry struct {
	Key        string
	Value      string
	Items      []string
	Line       int
	Start, End int // value bytes
}

var fmKeyLine = lazyre.New(`^([A-Za-z_][A-Za-z0-9_ -]*?)\s*:(?:\s+(.*?)|)\s*$`)

func (p *parser) frontMatter() {
	t := p.t
	if len(t.Lines) == 0 || t.Lines[0].Kind != LineFrontMatter {
		return
	}
	var cur *fmEntry
	end := 1
	for i := 1; i < len(t.Lines) && t.Lines[i].Kind == LineFrontMatter; i++ {
		s := t.LineText(i)
		trimmed := strings.TrimSpace(s)
		end = i
		// The same test as Text.classify, so both agree on the end.
		if d := strings.TrimRight(s, " \t"); d == "---" || d == "..." {
			break
		}
		if strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\t") || strings.HasPrefix(s, "-") {
			if cur != nil && strings.HasPrefix(trimmed, "- ") {
				cur.Items = append(cur.Items, unquote(strings.TrimSpace(trimmed[2:])))
			}
			continue
		}
		m := fmKeyLine.FindStringSubmatchIndex(s)
		if m == nil {
			cur = nil
			continue
		}
		e := fmEntry{Key: strings.ToLower(s[m[2]:m[3]]), Line: i}
		if m[4] >= 0 {
			raw := s[m[4]:m[5]]
			// Drop a trailing comment, keep quoted text intact.
			e.Value = unquote(stripYAMLComment(raw))
			e.Start = t.Lines[i].Start + m[4]
			e.End = e.Start + len(strings.TrimRight(stripYAMLComment(raw), " \t"))
		} else {
			e.Start = t.Lines[i].Start + len(strings.TrimRight(s, " \t"))
			e.End = e.Start
		}
		if strings.HasPrefix(e.Value, "[") && strings.HasSuffix(e.Value, "]") {
			e.Items = splitList(e.Value)
		}
		p.fm = append(p.fm, e)
		cur = &p.fm[len(p.fm)-1]
	}
	p.yamlValues(end)
	for i := range p.fm {
		e := &p.fm[i]
		key, rel, ok := metaKeyOf(strings.ReplaceAll(e.Key, "_", " "))
		if !ok {
			key, rel, ok = metaKeyOf(e.Key)
		}
		if !ok {
			continue
		}
		switch {
		case rel != "":
			items := e.Items
			if len(items) == 0 && e.Value != "" {
				items = splitList(e.Value)
				// "[A](0001-a.md), [B](0002-b.md)": splitting would cut
				// the links; take their targets.
				if links := mdLink.FindAllStringSubmatch(e.Value, -1); len(links) > 0 {
					items = nil
					for _, m := range links {
						items = append(items, m[2])
					}
				}
			}
			for _, it := range items {
				if m := mdLink.FindStringSubmatch(it); m != nil {
					it = m[2] // a block list item written as a link
				}
				p.addRelation(rel, e.Key, it, e.Line)
			}
		case key == keyStatus:
			p.setStatus(e.Value, Field{Kind: FieldFrontMatter, Line: e.Line, Start: e.Start, End: e.End}, e.Line)
		case key == keyDate:
			if p.rec.Date == "" {
				p.rec.Date = recordDate(e.Value)
			}
		case key == keyDomain:
			items := e.Items
			if len(items) == 0 {
				items = splitList(e.Value)
			}
			p.addDomains(items)
		case key == keyTitle:
			if p.rec.RawTitle == "" {
				p.rec.RawTitle = e.Value
			}
		case key == keyStyle:
			if strings.EqualFold(e.Value, "ocp") {
				p.forceOCP = true
			}
		case key == keyIter && p.rec.Iteration == "":
			p.rec.Iteration = strings.TrimSpace(e.Value)
		case key == keyScope && p.rec.Scope == "":
			p.rec.Scope = strings.ToLower(strings.TrimSpace(e.Value))
		case key == keyApplies:
			p.appliesTo(e.Value, e.Items)
		case key == keyReview && p.rec.ReviewBy == "":
			if d, ok := reviewDate(e.Key, e.Value); ok {
				p.rec.ReviewBy = d
			}
		}
	}
}

// yamlValues re-reads the front matter (lines 1..end-1; end is the closing
// delimiter) with a YAML parser
// so that quoting, block lists and multi-line values are read exactly; the
// line scan keeps the byte spans used for edits.
func (p *parser) yamlValues(end int) {
	t := p.t
	if end <= 1 {
		return
	}
	// YAML reads CRLF as LF; giving it LF keeps its verdict (and its error
	// messages) the same for both line endings.
	block := bytes.ReplaceAll(t.Src[t.Lines[1].Start:t.Lines[end].Start], []byte("\r\n"), []byte("\n"))
	var doc yaml.Node
	if err := yaml.Unmarshal(block, &doc); err != nil {
		p.rec.Problems = append(p.rec.Problems, "front matter is not valid YAML: "+err.Error())
		return
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return
	}
	m := doc.Content[0]
	// The n-th YAML key k is the n-th "k:" line of the scan, so a repeated
	// key keeps its own value and the pass stays linear.
	byKey := map[string][]int{}
	for j := range p.fm {
		byKey[p.fm[j].Key] = append(byKey[p.fm[j].Key], j)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := strings.ToLower(m.Content[i].Value), m.Content[i+1]
		if js := byKey[k]; len(js) > 0 {
			j := js[0]
			byKey[k] = js[1:]
			switch v.Kind {
			case yaml.ScalarNode:
				p.fm[j].Value = v.Value
				p.fm[j].Items = nil
			case yaml.SequenceNode:
				p.fm[j].Value = ""
				p.fm[j].Items = nil
				for _, it := range v.Content {
					if it.Kind == yaml.ScalarNode {
						p.fm[j].Items = append(p.fm[j].Items, it.Value)
					}
				}
			}
		}
	}
}

func stripYAMLComment(s string) string {
	if strings.HasPrefix(s, `"`) || strings.HasPrefix(s, `'`) {
		return s
	}
	if i := strings.Index(s, " #"); i >= 0 {
		return s[:i]
	}
	return s
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}
