package project

import (
	"errors"
	"os"
	"path/filepath"
)

// kbDirName is the directory under a tree's root that holds its knowledge
// base by default.
const kbDirName = ".rlm"

// kbDirGitignore is the .gitignore rlm writes into its own directory: git
// ignores everything in it, itself included, so that the knowledge base
// never shows in `git status` nor is swept up by `git stash -u`.
const kbDirGitignore = "# written by rlm: its knowledge base is not part of the project\n*\n"

// ignoreKBDir writes kbDirGitignore into dir when dir is named .rlm and
// has no .gitignore yet (one already there, the user's, is left alone).
// Best effort: a directory that cannot be written is left as it is.
func ignoreKBDir(dir string) {
	if filepath.Base(dir) != kbDirName {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return // exists (errors.Is fs.ErrExist), or not writable
	}
	_, werr := f.WriteString(kbDirGitignore)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(f.Name())
	}
}
