package errs

import (
	"fmt"
	"strconv"
)

// Budget dimensions.
const (
	DimensionTokens = "tokens"
	DimensionCost   = "cost"
)

// BudgetExceeded is a model call refused before it was made because it
// would exceed the Run's budget; nothing was spent.
type BudgetExceeded struct {
	Dimension string  `meta:"dimension"`
	Requested float64 `meta:"requested"` // committed + amount
	Limit     float64 `meta:"limit"`
}

// Error returns the error's message.
func (e *BudgetExceeded) Error() string {
	return fmt.Sprintf("budget exceeded for %s: %s > %s", e.Dimension, formatAmount(e.Requested), formatAmount(e.Limit))
}

// BudgetOverrun is a model call that completed but pushed the Run's usage
// over its budget.
type BudgetOverrun struct {
	Dimension string  `meta:"dimension"`
	Used      float64 `meta:"used"`
	Limit     float64 `meta:"limit"`
}

// Error returns the error's message.
func (e *BudgetOverrun) Error() string {
	if e.Dimension == DimensionCost {
		return fmt.Sprintf("Cost budget exceeded: $%.6f used, budget is $%.6f", e.Used, e.Limit)
	}
	return fmt.Sprintf("Token budget exceeded: %s tokens used, budget is %s", formatAmount(e.Used), formatAmount(e.Limit))
}

// ToolLoopLimit is the circuit breaker: the Run asked for more tool calls
// than max_tool_rounds allows. Calls is always Max+1.
type ToolLoopLimit struct {
	Calls int `meta:"toolCalls"`
	Max   int `meta:"maxToolRounds"`
}

// Error returns the error's message.
func (e *ToolLoopLimit) Error() string {
	return fmt.Sprintf("Circuit breaker triggered: %d tool calls exceeded max_tool_rounds (%d)", e.Calls, e.Max)
}

// formatAmount prints a number the shortest way that reads it back exactly:
// 1200, 0.62.
func formatAmount(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
