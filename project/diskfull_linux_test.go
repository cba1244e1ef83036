//go:build linux

package project_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// smallDisk mounts a tmpfs of size bytes on a new directory for the test
// and returns it; it skips, saying why, when the test cannot mount one (not
// root, or no permission to mount in this container).
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() != 0 {
		t.Skip("a full disk is simulated with a small tmpfs, which needs root to mount")
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs to simulate a full disk: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// fillDisk writes a file into dir until the file system is full, then
// gives back headroom bytes, and returns the file's path.
func fillDisk(t *testing.T, dir string, headroom int64) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := bytes.Repeat([]byte{1}, 64<<10)
	var n int64
	for {
		m, err := f.Write(chunk)
		n += int64(m)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Truncate(max(n-headroom, 0)); err != nil {
		t.Fatal(err)
	}
	return path
}

// rename rewrites the file of Func007 in root so that it defines name
// instead.
func renameFunc007(t *testing.T, root, name string) {
	t.Helper()
	p := filepath.Join(root, "p", "f007.go")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Fields(strings.SplitN(string(b), "func ", 2)[1])[0]
	old = old[:strings.Index(old, "(")]
	if err := os.WriteFile(p, bytes.ReplaceAll(b, []byte(old), []byte(name)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFullDiskNeverLeavesAPartialSearchIndexAndKeepsTheKnowledgeBase: on a
// disk (a small tmpfs) with room for the knowledge base's next generation
// but not for a new search index built whole (there is no earlier index to
// update) — full while the index is filled, or while it is sealed — the
// build fails with nothing renamed into place
// and no temporary file left; with no room at all, publishing fails and
// the knowledge base keeps its last generation, whole. Once space is
// freed, the next open answers from the new bytes.
func TestFullDiskNeverLeavesAPartialSearchIndexAndKeepsTheKnowledgeBase(t *testing.T) {
	cases := []struct {
		name     string
		headroom int64 // tenths of the first search index's size
		publish  bool  // fill the disk before the publish too
	}{
		// A whole build writes no journal or WAL (embedded.WithBulkBuild):
		// it needs about the room of the index itself, so a disk with
		// room for less fails while the index is filled, and one with
		// room for a little more when the sealed file is put back in WAL
		// mode (its -wal and -shm) and checkpointed.
		{name: "full while the index is filled", headroom: 6},
		{name: "full while its search indexes are made or it is sealed", headroom: 12},
		{name: "full while the knowledge base publishes", publish: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			disk := smallDisk(t, "16m")
			root := indexTree(t, 300)
			opts := project.Options{DBPath: filepath.Join(disk, "kb.sqlite")}
			p, err := project.Open(t.Context(), root, opts)
			if err != nil {
				t.Fatal(err)
			}
			gen := p.Snapshot().Generation
			p.Close()
			ixs := dirFiles(t, disk, isSearchIndex)
			if len(ixs) != 1 {
				t.Fatalf("search indexes %v, want one", ixs)
			}
			fi, err := os.Stat(filepath.Join(disk, ixs[0]))
			if err != nil {
				t.Fatal(err)
			}
			renameFunc007(t, root, "Gunc007")
			if c.publish {
				st, done, err := project.OpenStore(t.Context(), root, opts.DBPath, sourcefacts.Lister{}, 0)
				if err != nil {
					t.Fatal(err)
				}
				var more strings.Builder
				for i := range 4000 {
					fmt.Fprintf(&more, "\n// Extra%d makes the next generation larger than the disk's room.\nfunc Extra%d() int { return %d }\n", i, i, i)
				}
				appendFile(t, filepath.Join(root, "p", "f007.go"), more.String())
				filler := fillDisk(t, disk, 0)
				if sn, err := st.Snapshot(t.Context(), store.All(), store.SnapshotOptions{}); err == nil {
					sn.Close()
					t.Fatal("a generation was published on a full disk")
				} else {
					t.Logf("the publish on a full disk failed: %v", err)
				}
				os.Remove(filler)
				if err := st.Verify(t.Context()); err != nil {
					t.Errorf("the knowledge base after a publish on a full disk: %v", err)
				}
				if g := lastGeneration(t, st); g != gen {
					t.Errorf("generation %d after the failed publish, want %d", g, gen)
				}
				st.Close()
				done()
			} else {
				// No earlier index: the next one is built whole.
				removeIndexFiles(t, disk)
				ixs = nil
				filler := fillDisk(t, disk, fi.Size()*c.headroom/10)
				if p, err := project.Open(t.Context(), root, opts); err == nil {
					p.Close()
					t.Fatal("a search index was built on a full disk")
				} else {
					t.Logf("the build on a full disk failed: %v", err)
				}
				if diff := cmp.Diff(ixs, dirFiles(t, disk, isSearchIndex)); diff != "" {
					t.Errorf("search index files after the failed build (-before +after):\n%s", diff)
				}
				if tmps := dirFiles(t, disk, isTemp); len(tmps) != 0 {
					t.Errorf("the failed build left %v", tmps)
				}
				os.Remove(filler)
			}

			p, err = project.Open(t.Context(), root, opts)
			if err != nil {
				t.Fatalf("open once space is freed: %v", err)
			}
			defer p.Close()
			if p.Snapshot().Generation <= gen {
				t.Errorf("generation %d, want past %d", p.Snapshot().Generation, gen)
			}
			if got := searchPaths(t, p, "Gunc007"); !cmp.Equal(got, []string{"p/f007.go"}) {
				t.Errorf("Gunc007 hits %v, want p/f007.go", got)
			}
			if got := searchPaths(t, p, "Func007"); len(got) != 0 {
				t.Errorf("Func007 hits %v after it was renamed", got)
			}
		})
	}
}

// appendFile appends text to the file at path.
func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// lastGeneration is the generation of st's last published snapshot.
func lastGeneration(t *testing.T, st *store.Store) int64 {
	t.Helper()
	sn, err := st.Snapshot(t.Context(), store.All(), store.SnapshotOptions{SkipValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sn.Close()
	return sn.Identity().Generation
}

// TestFullDiskDuringAnIncrementalUpdateLeavesTheEarlierIndexWhole: when the
// disk fills while a search index is updated from an earlier snapshot's —
// in place (no one reads the earlier index) or in a copy (a project still
// reads it) — the update fails with no new file under a final name, no
// temporary file left and the earlier index whole under its own name (in
// place: its transaction rolled back and the file renamed back). Once space
// is freed, the next open updates it and answers from the new bytes.
func TestFullDiskDuringAnIncrementalUpdateLeavesTheEarlierIndexWhole(t *testing.T) {
	for _, c := range []struct {
		name     string
		held     bool                   // a project keeps reading the earlier index
		headroom func(size int64) int64 // bytes left free, given the index's size
	}{
		{name: "in place, full while it is opened", headroom: func(int64) int64 { return 40 << 10 }},
		{name: "in place, full at its commit", headroom: func(int64) int64 { return 96 << 10 }},
		{name: "in a copy, full while it is copied", held: true, headroom: func(size int64) int64 { return size * 6 / 10 }},
		{name: "in a copy, full while the copy is updated", held: true, headroom: func(size int64) int64 { return size + 40<<10 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			disk := smallDisk(t, "16m")
			root := indexTree(t, 300)
			opts := project.Options{DBPath: filepath.Join(disk, "kb.sqlite")}
			p0, err := project.Open(t.Context(), root, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !c.held {
				p0.Close()
			} else {
				defer p0.Close()
			}
			ixs := dirFiles(t, disk, isSearchIndex)
			fi, err := os.Stat(filepath.Join(disk, ixs[0]))
			if err != nil {
				t.Fatal(err)
			}
			renameFunc007(t, root, "Gunc007")
			// Publish the new generation first, so the disk fills during
			// the search index's update (the files' times set in the past:
			// a time within the second of a read gets its row rewritten at
			// the next validation).
			setTimesInPast(t, root)
			st, done, err := project.OpenStore(t.Context(), root, opts.DBPath, sourcefacts.Lister{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			sn, err := st.Snapshot(t.Context(), store.All(), store.SnapshotOptions{})
			if err != nil {
				t.Fatal(err)
			}
			sn.Close()
			st.Close()
			done()
			filler := fillDisk(t, disk, c.headroom(fi.Size()))
			if p, err := project.Open(t.Context(), root, opts); err == nil {
				p.Close()
				t.Fatal("a search index was updated on a full disk")
			} else {
				t.Logf("the update on a full disk failed: %v", err)
			}
			if diff := cmp.Diff(ixs, dirFiles(t, disk, isSearchIndex)); diff != "" {
				t.Errorf("search index files after the failed update (-before +after):\n%s", diff)
			}
			if tmps := dirFiles(t, disk, isTemp); len(tmps) != 0 {
				t.Errorf("the failed update left %v", tmps)
			}
			os.Remove(filler)
			p, err := project.Open(t.Context(), root, opts)
			if err != nil {
				t.Fatalf("open once space is freed: %v", err)
			}
			defer p.Close()
			if from := p.Stats().DerivedFrom; from != 1 {
				t.Errorf("the search index was derived from generation %d, want 1 (updated, not rebuilt)", from)
			}
			if got := searchPaths(t, p, "Gunc007"); !cmp.Equal(got, []string{"p/f007.go"}) {
				t.Errorf("Gunc007 hits %v, want p/f007.go", got)
			}
			if got := searchPaths(t, p, "Func007"); len(got) != 0 {
				t.Errorf("Func007 hits %v after it was renamed", got)
			}
		})
	}
}

// setTimesInPast sets the modification time of every file under root an
// hour back.
func setTimesInPast(t *testing.T, root string) {
	t.Helper()
	past := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(path, past, past)
	})
	if err != nil {
		t.Fatal(err)
	}
}
