from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.rpc import error_details_pb2 as _error_details_pb2
from google.rpc import status_pb2 as _status_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

ABORT_CAUSE_DEADLINE: AbortCause
ABORT_CAUSE_INTERRUPTED: AbortCause
ABORT_CAUSE_REPLACED: AbortCause
ABORT_CAUSE_UNSPECIFIED: AbortCause
DESCRIPTOR: _descriptor.FileDescriptor
IN_DOUBT_OUTCOME_DID_NOT_HAPPEN: InDoubtOutcome
IN_DOUBT_OUTCOME_HAPPENED: InDoubtOutcome
IN_DOUBT_OUTCOME_SKIP: InDoubtOutcome
IN_DOUBT_OUTCOME_UNSPECIFIED: InDoubtOutcome
MESSAGE_MODE_FOLLOW_UP: MessageMode
MESSAGE_MODE_STEER: MessageMode
MESSAGE_MODE_UNSPECIFIED: MessageMode
RUN_STATE_ABANDONED: RunState
RUN_STATE_ABORTED: RunState
RUN_STATE_COMPLETED: RunState
RUN_STATE_FAILED: RunState
RUN_STATE_QUEUED: RunState
RUN_STATE_RUNNING: RunState
RUN_STATE_SUSPENDED: RunState
RUN_STATE_UNSPECIFIED: RunState
SUSPENSION_REASON_APPROVAL: SuspensionReason
SUSPENSION_REASON_CHILDREN: SuspensionReason
SUSPENSION_REASON_QUESTION: SuspensionReason
SUSPENSION_REASON_TIMER: SuspensionReason
SUSPENSION_REASON_TOOL_RESULTS: SuspensionReason
SUSPENSION_REASON_UNSPECIFIED: SuspensionReason

class BudgetAsk(_message.Message):
    __slots__ = ["dimension", "limit", "reserve", "spent"]
    DIMENSION_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    SPENT_FIELD_NUMBER: _ClassVar[int]
    dimension: str
    limit: float
    reserve: float
    spent: float
    def __init__(self, dimension: _Optional[str] = ..., spent: _Optional[float] = ..., reserve: _Optional[float] = ..., limit: _Optional[float] = ...) -> None: ...

class ForkOrigin(_message.Message):
    __slots__ = ["run_id", "seq", "turn"]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    seq: int
    turn: int
    def __init__(self, run_id: _Optional[str] = ..., seq: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...

class InDoubtAnswer(_message.Message):
    __slots__ = ["outcome", "output"]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    outcome: InDoubtOutcome
    output: _struct_pb2.Value
    def __init__(self, outcome: _Optional[_Union[InDoubtOutcome, str]] = ..., output: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class Record(_message.Message):
    __slots__ = ["a2a_task", "abort_requested", "admitted", "attempt", "attempt_started", "delegation_finished", "delegation_started", "history_compacted", "message_consumed", "message_queued", "model_call_failed", "model_call_finished", "model_call_started", "resumed", "seq", "settled", "suspended", "time", "tool_call_failed", "tool_call_finished", "tool_call_started", "turn_started"]
    class A2aTask(_message.Message):
        __slots__ = ["answered", "call_id", "context_id", "question", "question_id", "replies", "task_id"]
        ANSWERED_FIELD_NUMBER: _ClassVar[int]
        CALL_ID_FIELD_NUMBER: _ClassVar[int]
        CONTEXT_ID_FIELD_NUMBER: _ClassVar[int]
        QUESTION_FIELD_NUMBER: _ClassVar[int]
        QUESTION_ID_FIELD_NUMBER: _ClassVar[int]
        REPLIES_FIELD_NUMBER: _ClassVar[int]
        TASK_ID_FIELD_NUMBER: _ClassVar[int]
        answered: str
        call_id: str
        context_id: str
        question: str
        question_id: str
        replies: int
        task_id: str
        def __init__(self, call_id: _Optional[str] = ..., task_id: _Optional[str] = ..., context_id: _Optional[str] = ..., replies: _Optional[int] = ..., question: _Optional[str] = ..., question_id: _Optional[str] = ..., answered: _Optional[str] = ...) -> None: ...
    class AbortRequested(_message.Message):
        __slots__ = ["cause", "reason"]
        CAUSE_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        cause: AbortCause
        reason: str
        def __init__(self, cause: _Optional[_Union[AbortCause, str]] = ..., reason: _Optional[str] = ...) -> None: ...
    class Admitted(_message.Message):
        __slots__ = ["deadline_time", "delegation_id", "depth", "fork_of", "input", "parent_run_id", "request_id", "root_run_id", "spec", "start_time", "version"]
        DEADLINE_TIME_FIELD_NUMBER: _ClassVar[int]
        DELEGATION_ID_FIELD_NUMBER: _ClassVar[int]
        DEPTH_FIELD_NUMBER: _ClassVar[int]
        FORK_OF_FIELD_NUMBER: _ClassVar[int]
        INPUT_FIELD_NUMBER: _ClassVar[int]
        PARENT_RUN_ID_FIELD_NUMBER: _ClassVar[int]
        REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
        ROOT_RUN_ID_FIELD_NUMBER: _ClassVar[int]
        SPEC_FIELD_NUMBER: _ClassVar[int]
        START_TIME_FIELD_NUMBER: _ClassVar[int]
        VERSION_FIELD_NUMBER: _ClassVar[int]
        deadline_time: _timestamp_pb2.Timestamp
        delegation_id: str
        depth: int
        fork_of: ForkOrigin
        input: str
        parent_run_id: str
        request_id: str
        root_run_id: str
        spec: str
        start_time: _timestamp_pb2.Timestamp
        version: str
        def __init__(self, spec: _Optional[str] = ..., version: _Optional[str] = ..., input: _Optional[str] = ..., request_id: _Optional[str] = ..., deadline_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., parent_run_id: _Optional[str] = ..., root_run_id: _Optional[str] = ..., delegation_id: _Optional[str] = ..., depth: _Optional[int] = ..., fork_of: _Optional[_Union[ForkOrigin, _Mapping]] = ..., start_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
    class AttemptStarted(_message.Message):
        __slots__ = ["attempt", "worker_id"]
        ATTEMPT_FIELD_NUMBER: _ClassVar[int]
        WORKER_ID_FIELD_NUMBER: _ClassVar[int]
        attempt: int
        worker_id: str
        def __init__(self, attempt: _Optional[int] = ..., worker_id: _Optional[str] = ...) -> None: ...
    class DelegationFinished(_message.Message):
        __slots__ = ["answer", "child_run_id", "delegation_id", "failure", "state"]
        ANSWER_FIELD_NUMBER: _ClassVar[int]
        CHILD_RUN_ID_FIELD_NUMBER: _ClassVar[int]
        DELEGATION_ID_FIELD_NUMBER: _ClassVar[int]
        FAILURE_FIELD_NUMBER: _ClassVar[int]
        STATE_FIELD_NUMBER: _ClassVar[int]
        answer: str
        child_run_id: str
        delegation_id: str
        failure: _status_pb2.Status
        state: RunState
        def __init__(self, delegation_id: _Optional[str] = ..., child_run_id: _Optional[str] = ..., state: _Optional[_Union[RunState, str]] = ..., answer: _Optional[str] = ..., failure: _Optional[_Union[_status_pb2.Status, _Mapping]] = ...) -> None: ...
    class DelegationStarted(_message.Message):
        __slots__ = ["call_id", "child_run_id", "delegation_id", "spec", "task"]
        CALL_ID_FIELD_NUMBER: _ClassVar[int]
        CHILD_RUN_ID_FIELD_NUMBER: _ClassVar[int]
        DELEGATION_ID_FIELD_NUMBER: _ClassVar[int]
        SPEC_FIELD_NUMBER: _ClassVar[int]
        TASK_FIELD_NUMBER: _ClassVar[int]
        call_id: str
        child_run_id: str
        delegation_id: str
        spec: str
        task: str
        def __init__(self, delegation_id: _Optional[str] = ..., child_run_id: _Optional[str] = ..., spec: _Optional[str] = ..., task: _Optional[str] = ..., call_id: _Optional[str] = ...) -> None: ...
    class HistoryCompacted(_message.Message):
        __slots__ = ["after_refusal", "history_messages", "input_tokens", "messages", "output_tokens", "summary", "through_turn", "turn"]
        AFTER_REFUSAL_FIELD_NUMBER: _ClassVar[int]
        HISTORY_MESSAGES_FIELD_NUMBER: _ClassVar[int]
        INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
        MESSAGES_FIELD_NUMBER: _ClassVar[int]
        OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
        SUMMARY_FIELD_NUMBER: _ClassVar[int]
        THROUGH_TURN_FIELD_NUMBER: _ClassVar[int]
        TURN_FIELD_NUMBER: _ClassVar[int]
        after_refusal: bool
        history_messages: int
        input_tokens: int
        messages: int
        output_tokens: int
        summary: str
        through_turn: int
        turn: int
        def __init__(self, turn: _Optional[int] = ..., through_turn: _Optional[int] = ..., messages: _Optional[int] = ..., summary: _Optional[str] = ..., after_refusal: bool = ..., input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., history_messages: _Optional[int] = ...) -> None: ...
    class MessageConsumed(_message.Message):
        __slots__ = ["queued_seqs"]
        QUEUED_SEQS_FIELD_NUMBER: _ClassVar[int]
        queued_seqs: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, queued_seqs: _Optional[_Iterable[int]] = ...) -> None: ...
    class MessageQueued(_message.Message):
        __slots__ = ["mode", "text"]
        MODE_FIELD_NUMBER: _ClassVar[int]
        TEXT_FIELD_NUMBER: _ClassVar[int]
        mode: MessageMode
        text: str
        def __init__(self, text: _Optional[str] = ..., mode: _Optional[_Union[MessageMode, str]] = ...) -> None: ...
    class ModelCallFailed(_message.Message):
        __slots__ = ["failure", "retry_after", "turn", "will_retry"]
        FAILURE_FIELD_NUMBER: _ClassVar[int]
        RETRY_AFTER_FIELD_NUMBER: _ClassVar[int]
        TURN_FIELD_NUMBER: _ClassVar[int]
        WILL_RETRY_FIELD_NUMBER: _ClassVar[int]
        failure: _status_pb2.Status
        retry_after: _duration_pb2.Duration
        turn: int
        will_retry: bool
        def __init__(self, turn: _Optional[int] = ..., failure: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., will_retry: bool = ..., retry_after: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...
    class ModelCallFinished(_message.Message):
        __slots__ = ["cost_usd", "fallbacks", "input_tokens", "model", "output_tokens", "output_violations", "priced", "rate_limit_wait", "text", "tool_calls", "turn"]
        COST_USD_FIELD_NUMBER: _ClassVar[int]
        FALLBACKS_FIELD_NUMBER: _ClassVar[int]
        INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
        MODEL_FIELD_NUMBER: _ClassVar[int]
        OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
        OUTPUT_VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
        PRICED_FIELD_NUMBER: _ClassVar[int]
        RATE_LIMIT_WAIT_FIELD_NUMBER: _ClassVar[int]
        TEXT_FIELD_NUMBER: _ClassVar[int]
        TOOL_CALLS_FIELD_NUMBER: _ClassVar[int]
        TURN_FIELD_NUMBER: _ClassVar[int]
        cost_usd: float
        fallbacks: _containers.RepeatedCompositeFieldContainer[Record.ModelFallback]
        input_tokens: int
        model: str
        output_tokens: int
        output_violations: _containers.RepeatedCompositeFieldContainer[_error_details_pb2.BadRequest.FieldViolation]
        priced: bool
        rate_limit_wait: _duration_pb2.Duration
        text: str
        tool_calls: _containers.RepeatedCompositeFieldContainer[ToolCall]
        turn: int
        def __init__(self, turn: _Optional[int] = ..., text: _Optional[str] = ..., tool_calls: _Optional[_Iterable[_Union[ToolCall, _Mapping]]] = ..., input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., cost_usd: _Optional[float] = ..., priced: bool = ..., output_violations: _Optional[_Iterable[_Union[_error_details_pb2.BadRequest.FieldViolation, _Mapping]]] = ..., model: _Optional[str] = ..., fallbacks: _Optional[_Iterable[_Union[Record.ModelFallback, _Mapping]]] = ..., rate_limit_wait: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...
    class ModelCallStarted(_message.Message):
        __slots__ = ["reserved_cost_usd", "reserved_tokens", "turn"]
        RESERVED_COST_USD_FIELD_NUMBER: _ClassVar[int]
        RESERVED_TOKENS_FIELD_NUMBER: _ClassVar[int]
        TURN_FIELD_NUMBER: _ClassVar[int]
        reserved_cost_usd: float
        reserved_tokens: int
        turn: int
        def __init__(self, turn: _Optional[int] = ..., reserved_tokens: _Optional[int] = ..., reserved_cost_usd: _Optional[float] = ...) -> None: ...
    class ModelFallback(_message.Message):
        __slots__ = ["failure", "model"]
        FAILURE_FIELD_NUMBER: _ClassVar[int]
        MODEL_FIELD_NUMBER: _ClassVar[int]
        failure: _status_pb2.Status
        model: str
        def __init__(self, model: _Optional[str] = ..., failure: _Optional[_Union[_status_pb2.Status, _Mapping]] = ...) -> None: ...
    class Resumed(_message.Message):
        __slots__ = ["answer", "approved", "budget_limit", "early", "in_doubt", "note", "reason", "tool_results"]
        ANSWER_FIELD_NUMBER: _ClassVar[int]
        APPROVED_FIELD_NUMBER: _ClassVar[int]
        BUDGET_LIMIT_FIELD_NUMBER: _ClassVar[int]
        EARLY_FIELD_NUMBER: _ClassVar[int]
        IN_DOUBT_FIELD_NUMBER: _ClassVar[int]
        NOTE_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        TOOL_RESULTS_FIELD_NUMBER: _ClassVar[int]
        answer: str
        approved: bool
        budget_limit: float
        early: bool
        in_doubt: InDoubtAnswer
        note: str
        reason: SuspensionReason
        tool_results: _containers.RepeatedCompositeFieldContainer[ToolResult]
        def __init__(self, reason: _Optional[_Union[SuspensionReason, str]] = ..., tool_results: _Optional[_Iterable[_Union[ToolResult, _Mapping]]] = ..., answer: _Optional[str] = ..., approved: bool = ..., note: _Optional[str] = ..., in_doubt: _Optional[_Union[InDoubtAnswer, _Mapping]] = ..., early: bool = ..., budget_limit: _Optional[float] = ...) -> None: ...
    class Settled(_message.Message):
        __slots__ = ["abort_cause", "answer", "failure", "state"]
        ABORT_CAUSE_FIELD_NUMBER: _ClassVar[int]
        ANSWER_FIELD_NUMBER: _ClassVar[int]
        FAILURE_FIELD_NUMBER: _ClassVar[int]
        STATE_FIELD_NUMBER: _ClassVar[int]
        abort_cause: AbortCause
        answer: str
        failure: _status_pb2.Status
        state: RunState
        def __init__(self, state: _Optional[_Union[RunState, str]] = ..., abort_cause: _Optional[_Union[AbortCause, str]] = ..., answer: _Optional[str] = ..., failure: _Optional[_Union[_status_pb2.Status, _Mapping]] = ...) -> None: ...
    class Suspended(_message.Message):
        __slots__ = ["approval_reason", "budget", "call_id", "call_ids", "delegation_ids", "expire_time", "in_doubt", "question", "reason", "wake_time"]
        APPROVAL_REASON_FIELD_NUMBER: _ClassVar[int]
        BUDGET_FIELD_NUMBER: _ClassVar[int]
        CALL_IDS_FIELD_NUMBER: _ClassVar[int]
        CALL_ID_FIELD_NUMBER: _ClassVar[int]
        DELEGATION_IDS_FIELD_NUMBER: _ClassVar[int]
        EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
        IN_DOUBT_FIELD_NUMBER: _ClassVar[int]
        QUESTION_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        WAKE_TIME_FIELD_NUMBER: _ClassVar[int]
        approval_reason: str
        budget: BudgetAsk
        call_id: str
        call_ids: _containers.RepeatedScalarFieldContainer[str]
        delegation_ids: _containers.RepeatedScalarFieldContainer[str]
        expire_time: _timestamp_pb2.Timestamp
        in_doubt: bool
        question: str
        reason: SuspensionReason
        wake_time: _timestamp_pb2.Timestamp
        def __init__(self, reason: _Optional[_Union[SuspensionReason, str]] = ..., expire_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., call_ids: _Optional[_Iterable[str]] = ..., question: _Optional[str] = ..., call_id: _Optional[str] = ..., approval_reason: _Optional[str] = ..., delegation_ids: _Optional[_Iterable[str]] = ..., in_doubt: bool = ..., wake_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., budget: _Optional[_Union[BudgetAsk, _Mapping]] = ...) -> None: ...
    class ToolCallFailed(_message.Message):
        __slots__ = ["call_id", "error", "name", "retry_after"]
        CALL_ID_FIELD_NUMBER: _ClassVar[int]
        ERROR_FIELD_NUMBER: _ClassVar[int]
        NAME_FIELD_NUMBER: _ClassVar[int]
        RETRY_AFTER_FIELD_NUMBER: _ClassVar[int]
        call_id: str
        error: _status_pb2.Status
        name: str
        retry_after: _duration_pb2.Duration
        def __init__(self, call_id: _Optional[str] = ..., name: _Optional[str] = ..., error: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., retry_after: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...
    class ToolCallFinished(_message.Message):
        __slots__ = ["call_id", "error", "in_doubt", "name", "orphaned", "output"]
        CALL_ID_FIELD_NUMBER: _ClassVar[int]
        ERROR_FIELD_NUMBER: _ClassVar[int]
        IN_DOUBT_FIELD_NUMBER: _ClassVar[int]
        NAME_FIELD_NUMBER: _ClassVar[int]
        ORPHANED_FIELD_NUMBER: _ClassVar[int]
        OUTPUT_FIELD_NUMBER: _ClassVar[int]
        call_id: str
        error: _status_pb2.Status
        in_doubt: bool
        name: str
        orphaned: bool
        output: _struct_pb2.Value
        def __init__(self, call_id: _Optional[str] = ..., name: _Optional[str] = ..., output: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., error: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., orphaned: bool = ..., in_doubt: bool = ...) -> None: ...
    class ToolCallStarted(_message.Message):
        __slots__ = ["call_id", "name"]
        CALL_ID_FIELD_NUMBER: _ClassVar[int]
        NAME_FIELD_NUMBER: _ClassVar[int]
        call_id: str
        name: str
        def __init__(self, call_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...
    class TurnStarted(_message.Message):
        __slots__ = ["turn"]
        TURN_FIELD_NUMBER: _ClassVar[int]
        turn: int
        def __init__(self, turn: _Optional[int] = ...) -> None: ...
    A2A_TASK_FIELD_NUMBER: _ClassVar[int]
    ABORT_REQUESTED_FIELD_NUMBER: _ClassVar[int]
    ADMITTED_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_STARTED_FIELD_NUMBER: _ClassVar[int]
    DELEGATION_FINISHED_FIELD_NUMBER: _ClassVar[int]
    DELEGATION_STARTED_FIELD_NUMBER: _ClassVar[int]
    HISTORY_COMPACTED_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_CONSUMED_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_QUEUED_FIELD_NUMBER: _ClassVar[int]
    MODEL_CALL_FAILED_FIELD_NUMBER: _ClassVar[int]
    MODEL_CALL_FINISHED_FIELD_NUMBER: _ClassVar[int]
    MODEL_CALL_STARTED_FIELD_NUMBER: _ClassVar[int]
    RESUMED_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SETTLED_FIELD_NUMBER: _ClassVar[int]
    SUSPENDED_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_FAILED_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_FINISHED_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_STARTED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    a2a_task: Record.A2aTask
    abort_requested: Record.AbortRequested
    admitted: Record.Admitted
    attempt: int
    attempt_started: Record.AttemptStarted
    delegation_finished: Record.DelegationFinished
    delegation_started: Record.DelegationStarted
    history_compacted: Record.HistoryCompacted
    message_consumed: Record.MessageConsumed
    message_queued: Record.MessageQueued
    model_call_failed: Record.ModelCallFailed
    model_call_finished: Record.ModelCallFinished
    model_call_started: Record.ModelCallStarted
    resumed: Record.Resumed
    seq: int
    settled: Record.Settled
    suspended: Record.Suspended
    time: _timestamp_pb2.Timestamp
    tool_call_failed: Record.ToolCallFailed
    tool_call_finished: Record.ToolCallFinished
    tool_call_started: Record.ToolCallStarted
    turn_started: Record.TurnStarted
    def __init__(self, seq: _Optional[int] = ..., time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., attempt: _Optional[int] = ..., admitted: _Optional[_Union[Record.Admitted, _Mapping]] = ..., attempt_started: _Optional[_Union[Record.AttemptStarted, _Mapping]] = ..., turn_started: _Optional[_Union[Record.TurnStarted, _Mapping]] = ..., model_call_started: _Optional[_Union[Record.ModelCallStarted, _Mapping]] = ..., model_call_finished: _Optional[_Union[Record.ModelCallFinished, _Mapping]] = ..., model_call_failed: _Optional[_Union[Record.ModelCallFailed, _Mapping]] = ..., tool_call_started: _Optional[_Union[Record.ToolCallStarted, _Mapping]] = ..., tool_call_finished: _Optional[_Union[Record.ToolCallFinished, _Mapping]] = ..., tool_call_failed: _Optional[_Union[Record.ToolCallFailed, _Mapping]] = ..., suspended: _Optional[_Union[Record.Suspended, _Mapping]] = ..., resumed: _Optional[_Union[Record.Resumed, _Mapping]] = ..., abort_requested: _Optional[_Union[Record.AbortRequested, _Mapping]] = ..., message_queued: _Optional[_Union[Record.MessageQueued, _Mapping]] = ..., message_consumed: _Optional[_Union[Record.MessageConsumed, _Mapping]] = ..., delegation_started: _Optional[_Union[Record.DelegationStarted, _Mapping]] = ..., delegation_finished: _Optional[_Union[Record.DelegationFinished, _Mapping]] = ..., settled: _Optional[_Union[Record.Settled, _Mapping]] = ..., history_compacted: _Optional[_Union[Record.HistoryCompacted, _Mapping]] = ..., a2a_task: _Optional[_Union[Record.A2aTask, _Mapping]] = ...) -> None: ...

class ToolCall(_message.Message):
    __slots__ = ["arguments", "call_id", "name", "provider_call_id"]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_CALL_ID_FIELD_NUMBER: _ClassVar[int]
    arguments: _struct_pb2.Struct
    call_id: str
    name: str
    provider_call_id: str
    def __init__(self, call_id: _Optional[str] = ..., name: _Optional[str] = ..., arguments: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., provider_call_id: _Optional[str] = ...) -> None: ...

class ToolError(_message.Message):
    __slots__ = ["message", "retryable"]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    RETRYABLE_FIELD_NUMBER: _ClassVar[int]
    message: str
    retryable: bool
    def __init__(self, message: _Optional[str] = ..., retryable: bool = ...) -> None: ...

class ToolResult(_message.Message):
    __slots__ = ["call_id", "error", "output"]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    error: ToolError
    output: _struct_pb2.Value
    def __init__(self, call_id: _Optional[str] = ..., output: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., error: _Optional[_Union[ToolError, _Mapping]] = ...) -> None: ...

class Usage(_message.Message):
    __slots__ = ["cost_usd", "input_tokens", "model_calls", "output_tokens", "tool_calls", "transient_retries", "unpriced_calls"]
    COST_USD_FIELD_NUMBER: _ClassVar[int]
    INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MODEL_CALLS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALLS_FIELD_NUMBER: _ClassVar[int]
    TRANSIENT_RETRIES_FIELD_NUMBER: _ClassVar[int]
    UNPRICED_CALLS_FIELD_NUMBER: _ClassVar[int]
    cost_usd: float
    input_tokens: int
    model_calls: int
    output_tokens: int
    tool_calls: int
    transient_retries: int
    unpriced_calls: int
    def __init__(self, input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., cost_usd: _Optional[float] = ..., unpriced_calls: _Optional[int] = ..., model_calls: _Optional[int] = ..., tool_calls: _Optional[int] = ..., transient_retries: _Optional[int] = ...) -> None: ...

class RunState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class AbortCause(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class SuspensionReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class MessageMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class InDoubtOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
