package intent_test

import (
	"time"

	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/tools"
)

func tools_Policy(caps []string, effects ...tools.SideEffect) tools.Policy {
	return tools.Policy{Capabilities: caps, SideEffects: effects}
}

func limits(wall time.Duration) loop.Limits { return loop.Limits{Wall: wall} }
