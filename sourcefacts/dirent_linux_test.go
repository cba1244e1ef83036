//go:build linux

package sourcefacts

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// entriesOf is what the listing reads of os.ReadDir's entries.
func entriesOf(es []fs.DirEntry) []dirEntry {
	var out []dirEntry
	for _, e := range es {
		out = append(out, dirEntry{name: e.Name(), typ: e.Type()})
	}
	return out
}

// pathErr is an error's text without the absolute path: Op and cause.
func pathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// A directory read through the system calls (readDirEntries) gives the
// entries os.ReadDir gives, in its order, with its types and errors:
// more entries than one buffer holds, names of 255 bytes, past UTF-8,
// with a newline, "..."; regular files, directories, links (dangling
// too), a FIFO and a socket; from no buffer and from one too small; an
// absent directory and a file that is no directory.
func TestADirectoryIsReadAsOsReadDirReadsIt(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string) string { return filepath.Join(dir, name) }
	write := func(name string) {
		t.Helper()
		if err := os.WriteFile(mk(name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 1500 { // about 100 KB of records: several reads
		write(fmt.Sprintf("file-%04d-%s.go", i, strings.Repeat("x", 40)))
	}
	write(strings.Repeat("n", 255))
	write("bad\xff\xfe.go")
	write("new\nline.go")
	write("...")
	if err := os.Mkdir(mk("sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", mk("link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", mk("dangling")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(mk("pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if l, err := net.Listen("unix", mk("sock")); err == nil {
		defer l.Close()
	} else {
		t.Logf("no socket: %v", err)
	}
	for _, p := range []string{dir, mk("sub"), mk("absent"), mk("..."), mk("link")} {
		want, wantErr := os.ReadDir(p)
		for _, buf := range [][]byte{nil, make([]byte, 10), make([]byte, 0, 1<<20)} {
			got, _, err := readDirEntries(p, buf)
			if d := cmp.Diff(entriesOf(want), got, cmp.AllowUnexported(dirEntry{})); d != "" {
				t.Errorf("%s from a buffer of %d bytes (-os.ReadDir +read):\n%s", filepath.Base(p), cap(buf), d)
			}
			if pathErr(err) != pathErr(wantErr) {
				t.Errorf("%s: error %q, os.ReadDir's %q", filepath.Base(p), pathErr(err), pathErr(wantErr))
			}
		}
	}
}

// record is a getdents64 record for name with type typ.
func record(name string, typ byte) []byte {
	n := (direntName + len(name) + 1 + 7) &^ 7
	b := make([]byte, n)
	binary.NativeEndian.PutUint64(b, 1) // d_ino
	binary.NativeEndian.PutUint16(b[direntReclen:], uint16(n))
	b[direntType] = typ
	copy(b[direntName:], name)
	return b
}

// An entry whose type the file system does not say (DT_UNKNOWN) takes the
// type lstat gives; one gone since the directory was read is left out.
func TestAnEntryOfUnknownTypeIsTypedByLstat(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var b []byte
	for _, n := range []string{".", "..", "d", "gone", "l", "f.go"} {
		b = append(b, record(n, syscall.DT_UNKNOWN)...)
	}
	got, err := appendDirents(nil, dir, b)
	if err != nil {
		t.Fatal(err)
	}
	want := []dirEntry{{"d", fs.ModeDir}, {"l", fs.ModeSymlink}, {"f.go", 0}}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(dirEntry{})); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
}

// A record of inode 0 is a removed entry (os.File.ReadDir skips it): left
// out, the records around it kept.
func TestARecordOfInodeZeroIsLeftOut(t *testing.T) {
	removed := record("removed.go", syscall.DT_REG)
	binary.NativeEndian.PutUint64(removed, 0)
	b := append(append(record("a.go", syscall.DT_REG), removed...), record("b", syscall.DT_DIR)...)
	got, err := appendDirents(nil, t.TempDir(), b)
	if err != nil {
		t.Fatal(err)
	}
	want := []dirEntry{{"a.go", 0}, {"b", fs.ModeDir}}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(dirEntry{})); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
}
