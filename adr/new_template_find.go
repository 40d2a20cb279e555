package adr

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
)

// TemplateError is a project template that cannot be read: Msg names it
// and says why, Hint what to do. Nothing was written.
type TemplateError struct{ Msg, Hint string }

func (e *TemplateError) Error() string { return e.Msg }

// TemplateSources are where [FindTemplate] looks.
type TemplateSources struct {
	// WorkTree is the work tree through the confinement layer: a link
	// leading outside it is refused, not copied into the record.
	WorkTree fs.FS
	// Env is $ADR_TEMPLATE ("" when unset).
	Env string
	// Confined: Env is read only when it names a file inside the work
	// tree (Rel gives its path there); an agent's proposal copies no file
	// from outside the repository, whatever its environment names.
	Confined bool
	Rel      func(name string) (string, bool)
	// ReadOutside reads Env when not confined.
	ReadOutside func(name string) ([]byte, error)
}

// FindTemplate finds root's project template: the root's configured one,
// $ADR_TEMPLATE, adr-tools' <root>/templates/template.md, the template
// the log keeps beside its records (see [Root.LogTemplate]), or the one
// template above a log of component folders ([Root.ParentTemplate]). ""
// means none: the built-in template is used. A template named but not
// readable is a *TemplateError.
func FindTemplate(root *Root, src TemplateSources) (string, error) {
	var data []byte
	var err error
	switch {
	case root.Template != "":
		data, err = fs.ReadFile(src.WorkTree, path.Clean(filepath.ToSlash(root.Template)))
		if err != nil {
			return "", &TemplateError{Msg: fmt.Sprintf("%s template %q cannot be read: %v", ConfigFile, root.Template, pathErrReason(err)),
				Hint: "fix the path (a file inside the repository), or remove it to use the built-in template"}
		}
	case src.Env != "":
		name := src.Env
		if src.Confined {
			rel, ok := src.Rel(name)
			if !ok {
				return "", &TemplateError{Msg: fmt.Sprintf("ADR_TEMPLATE %q is outside the repository, and a proposal reads templates only from inside it", name),
					Hint: "unset ADR_TEMPLATE where git-adr runs for the agent, or keep the template in the repository"}
			}
			data, err = fs.ReadFile(src.WorkTree, rel)
		} else {
			data, err = src.ReadOutside(name)
		}
		if err != nil {
			return "", &TemplateError{Msg: fmt.Sprintf("ADR_TEMPLATE %q cannot be read: %v", name, pathErrReason(err)),
				Hint: "fix the path, or unset ADR_TEMPLATE to use the built-in template"}
		}
	default:
		// The parent folder is listed only when the root has no template
		// of its own.
		sources := []func() string{
			func() string { return root.Join("templates/template.md") },
			root.LogTemplate,
			func() string { return root.ParentTemplate(src.WorkTree) },
		}
		for _, source := range sources {
			p := source()
			if p == "" {
				continue
			}
			data, err = fs.ReadFile(src.WorkTree, p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return "", &TemplateError{Msg: fmt.Sprintf("template %s cannot be read: %v", p, pathErrReason(err)),
					Hint: "replace it with a regular file inside the repository, or remove it to use the built-in template"}
			}
			return string(data), nil
		}
		return "", nil
	}
	return string(data), nil
}

// pathErrReason is an error without the operation and path a
// *fs.PathError repeats (the message names the path already).
func pathErrReason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
