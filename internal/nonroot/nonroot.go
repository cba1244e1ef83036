// Package nonroot runs a test's body as a user without privileges, so that
// tests of permission faults (chmod 000, a read-only file) mean the same
// when the suite runs as root, which ignores file modes.
package nonroot

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// childEnv names, in the re-executed test binary, the test whose body runs
// there.
const childEnv = "RLM_NONROOT_TEST"

// UID and GID are the unprivileged user and group the body runs as under
// root (nobody, nogroup).
const (
	UID = "65534"
	GID = "65534"
)

// Run calls body(t) as a user that file modes apply to. Not root: body runs
// in this process. Root: the test binary is copied to a directory anyone
// can read and re-executed through setpriv(1) as UID/GID with no
// supplementary groups, running only this test, whose body then runs
// there; its output is logged and its failure fails t. Root without
// setpriv: t is skipped, saying so. body must create its own files (with
// t.TempDir) since it may run in another process as another user.
func Run(t *testing.T, body func(t *testing.T)) {
	t.Helper()
	if os.Geteuid() != 0 || os.Getenv(childEnv) == t.Name() {
		if os.Geteuid() == 0 {
			t.Fatal("nonroot: the child still runs as root")
		}
		body(t)
		return
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("running as root and setpriv(1) is not installed: file modes cannot be tested")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "rlm-nonroot-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "test.bin")
	if err := copyFile(self, bin); err != nil {
		t.Fatal(err)
	}
	var run []string
	for _, part := range strings.Split(t.Name(), "/") {
		run = append(run, "^"+regexp.QuoteMeta(part)+"$")
	}
	cmd := exec.CommandContext(t.Context(), setpriv, "--reuid="+UID, "--regid="+GID, "--clear-groups",
		bin, "-test.run="+strings.Join(run, "/"), "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name(), "HOME="+os.TempDir(), "XDG_CACHE_HOME="+filepath.Join(os.TempDir(), "rlm-nonroot-cache"))
	out, err := cmd.CombinedOutput()
	t.Logf("as uid %s:\n%s", UID, out)
	if err != nil {
		t.Fatalf("as uid %s: %v", UID, err)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("as uid %s: the test did not run and pass", UID)
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
