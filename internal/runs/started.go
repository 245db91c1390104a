package runs

// StartReporter hears of every Run created, whatever created it: a
// StartRun, a delegation, a fork, an import (metrics). It must be quick.
type StartReporter interface {
	// RunStarted reports one Run created for the Spec named spec.
	RunStarted(spec string)
}

// started reports a Run created for spec, when created is true.
func (m *Manager) started(spec string, created bool) {
	if created && m.starts != nil {
		m.starts.RunStarted(spec)
	}
}
