package rlm

import (
	"testing"
	"time"
)

// TestEveryProjectSettingOfOptionsReachesTheProject: the settings rlm.Options
// shares with project.Options are passed on as given.
func TestEveryProjectSettingOfOptionsReachesTheProject(t *testing.T) {
	o := Options{DBPath: "/kb", InMemory: true, RequireCurrent: true, IncludeIgnored: true, MaxFileBytes: 7, RetryVectorsAfter: 3 * time.Second}
	p := projectOptions(o)
	if p.DBPath != o.DBPath || p.InMemory != o.InMemory || p.RequireCurrent != o.RequireCurrent || !p.Files.IncludeIgnored ||
		p.MaxFileBytes != o.MaxFileBytes || p.RetryVectorsAfter != o.RetryVectorsAfter {
		t.Errorf("project options %+v do not carry %+v", p, o)
	}
}
