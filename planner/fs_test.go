package planner_test

import (
	"io/fs"
	"strings"
)

func walkFS(fsys fs.FS, fn func(path, text string) error) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".pl") {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return fn(p, string(b))
	})
}
