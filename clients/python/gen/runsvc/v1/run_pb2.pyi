from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.rpc import status_pb2 as _status_pb2
from runsvc.v1 import alias_pb2 as _alias_pb2
from runsvc.v1 import record_pb2 as _record_pb2
from runsvc.v1 import spec_pb2 as _spec_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DeleteRunRequest(_message.Message):
    __slots__ = ["interrupt", "run_id", "spec", "thread_id"]
    INTERRUPT_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    THREAD_ID_FIELD_NUMBER: _ClassVar[int]
    interrupt: bool
    run_id: str
    spec: str
    thread_id: str
    def __init__(self, run_id: _Optional[str] = ..., interrupt: bool = ..., spec: _Optional[str] = ..., thread_id: _Optional[str] = ...) -> None: ...

class DeleteRunResponse(_message.Message):
    __slots__ = ["deleted_count"]
    DELETED_COUNT_FIELD_NUMBER: _ClassVar[int]
    deleted_count: int
    def __init__(self, deleted_count: _Optional[int] = ...) -> None: ...

class ExportRunRequest(_message.Message):
    __slots__ = ["run_id"]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    def __init__(self, run_id: _Optional[str] = ...) -> None: ...

class ExportRunResponse(_message.Message):
    __slots__ = ["line"]
    LINE_FIELD_NUMBER: _ClassVar[int]
    line: str
    def __init__(self, line: _Optional[str] = ...) -> None: ...

class ForkRunRequest(_message.Message):
    __slots__ = ["at_seq", "deadline", "input", "request_id", "run_id", "turn", "version"]
    AT_SEQ_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    INPUT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    at_seq: int
    deadline: _duration_pb2.Duration
    input: str
    request_id: str
    run_id: str
    turn: int
    version: str
    def __init__(self, run_id: _Optional[str] = ..., turn: _Optional[int] = ..., at_seq: _Optional[int] = ..., input: _Optional[str] = ..., version: _Optional[str] = ..., request_id: _Optional[str] = ..., deadline: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class ForkRunResponse(_message.Message):
    __slots__ = ["created", "run"]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    created: bool
    run: Run
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ..., created: bool = ...) -> None: ...

class GetReportRequest(_message.Message):
    __slots__ = ["child_depth", "run_id"]
    CHILD_DEPTH_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    child_depth: int
    run_id: str
    def __init__(self, run_id: _Optional[str] = ..., child_depth: _Optional[int] = ...) -> None: ...

class GetReportResponse(_message.Message):
    __slots__ = ["report"]
    REPORT_FIELD_NUMBER: _ClassVar[int]
    report: Report
    def __init__(self, report: _Optional[_Union[Report, _Mapping]] = ...) -> None: ...

class GetRunRequest(_message.Message):
    __slots__ = ["run_id"]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    def __init__(self, run_id: _Optional[str] = ...) -> None: ...

class GetRunResponse(_message.Message):
    __slots__ = ["run"]
    RUN_FIELD_NUMBER: _ClassVar[int]
    run: Run
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ...) -> None: ...

class GetThreadRequest(_message.Message):
    __slots__ = ["thread_id"]
    THREAD_ID_FIELD_NUMBER: _ClassVar[int]
    thread_id: str
    def __init__(self, thread_id: _Optional[str] = ...) -> None: ...

class GetThreadResponse(_message.Message):
    __slots__ = ["thread"]
    THREAD_FIELD_NUMBER: _ClassVar[int]
    thread: Thread
    def __init__(self, thread: _Optional[_Union[Thread, _Mapping]] = ...) -> None: ...

class ImportRunRequest(_message.Message):
    __slots__ = ["line"]
    LINE_FIELD_NUMBER: _ClassVar[int]
    line: str
    def __init__(self, line: _Optional[str] = ...) -> None: ...

class ImportRunResponse(_message.Message):
    __slots__ = ["created", "run"]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    created: bool
    run: Run
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ..., created: bool = ...) -> None: ...

class InterruptRunRequest(_message.Message):
    __slots__ = ["reason", "run_id"]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    reason: str
    run_id: str
    def __init__(self, run_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class InterruptRunResponse(_message.Message):
    __slots__ = ["run"]
    RUN_FIELD_NUMBER: _ClassVar[int]
    run: Run
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ...) -> None: ...

class ListRunsRequest(_message.Message):
    __slots__ = ["page_size", "page_token", "parent_run_id", "schedule_id", "spec", "states", "thread_id"]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PARENT_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    THREAD_ID_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    parent_run_id: str
    schedule_id: str
    spec: str
    states: _containers.RepeatedScalarFieldContainer[_record_pb2.RunState]
    thread_id: str
    def __init__(self, states: _Optional[_Iterable[_Union[_record_pb2.RunState, str]]] = ..., spec: _Optional[str] = ..., parent_run_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., thread_id: _Optional[str] = ..., schedule_id: _Optional[str] = ...) -> None: ...

class ListRunsResponse(_message.Message):
    __slots__ = ["next_page_token", "runs"]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    next_page_token: str
    runs: _containers.RepeatedCompositeFieldContainer[Run]
    def __init__(self, runs: _Optional[_Iterable[_Union[Run, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListThreadsRequest(_message.Message):
    __slots__ = ["page_size", "page_token"]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListThreadsResponse(_message.Message):
    __slots__ = ["next_page_token", "threads"]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    next_page_token: str
    threads: _containers.RepeatedCompositeFieldContainer[Thread]
    def __init__(self, threads: _Optional[_Iterable[_Union[Thread, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ModelDelta(_message.Message):
    __slots__ = ["discarded", "offset", "seq", "text", "tool_call", "turn"]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    discarded: bool
    offset: int
    seq: int
    text: str
    tool_call: ToolCallDelta
    turn: int
    def __init__(self, seq: _Optional[int] = ..., turn: _Optional[int] = ..., offset: _Optional[int] = ..., text: _Optional[str] = ..., tool_call: _Optional[_Union[ToolCallDelta, _Mapping]] = ..., discarded: bool = ...) -> None: ...

class Report(_message.Message):
    __slots__ = ["children", "duration", "finished", "records", "run", "tool_calls"]
    CHILDREN_FIELD_NUMBER: _ClassVar[int]
    DURATION_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALLS_FIELD_NUMBER: _ClassVar[int]
    children: _containers.RepeatedCompositeFieldContainer[Report]
    duration: _duration_pb2.Duration
    finished: bool
    records: int
    run: Run
    tool_calls: _containers.RepeatedCompositeFieldContainer[ToolCallReport]
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ..., finished: bool = ..., tool_calls: _Optional[_Iterable[_Union[ToolCallReport, _Mapping]]] = ..., children: _Optional[_Iterable[_Union[Report, _Mapping]]] = ..., duration: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., records: _Optional[int] = ...) -> None: ...

class ResumeRunRequest(_message.Message):
    __slots__ = ["answer", "approved", "budget_limit", "in_doubt", "note", "run_id", "tool_results"]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    APPROVED_FIELD_NUMBER: _ClassVar[int]
    BUDGET_LIMIT_FIELD_NUMBER: _ClassVar[int]
    IN_DOUBT_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULTS_FIELD_NUMBER: _ClassVar[int]
    answer: str
    approved: bool
    budget_limit: float
    in_doubt: _record_pb2.InDoubtAnswer
    note: str
    run_id: str
    tool_results: _containers.RepeatedCompositeFieldContainer[_record_pb2.ToolResult]
    def __init__(self, run_id: _Optional[str] = ..., tool_results: _Optional[_Iterable[_Union[_record_pb2.ToolResult, _Mapping]]] = ..., answer: _Optional[str] = ..., approved: bool = ..., note: _Optional[str] = ..., in_doubt: _Optional[_Union[_record_pb2.InDoubtAnswer, _Mapping]] = ..., budget_limit: _Optional[float] = ...) -> None: ...

class ResumeRunResponse(_message.Message):
    __slots__ = ["run"]
    RUN_FIELD_NUMBER: _ClassVar[int]
    run: Run
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ...) -> None: ...

class Run(_message.Message):
    __slots__ = ["abort_cause", "alias", "alias_side", "answer", "attempt", "concurrency_key", "concurrency_place", "concurrency_seq", "continues_run_id", "create_time", "deadline_time", "delegation_id", "evaluation_id", "failure", "fairness_key", "fork_of", "input", "last_seq", "parent_run_id", "priority", "replay_of", "request_id", "root_run_id", "run_id", "schedule_id", "schedule_tick", "settle_time", "spec", "state", "suspension", "thread_id", "turn", "update_time", "usage", "version", "waiting", "waiting_on", "waiting_since"]
    ABORT_CAUSE_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    ALIAS_SIDE_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    CONCURRENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    CONCURRENCY_PLACE_FIELD_NUMBER: _ClassVar[int]
    CONCURRENCY_SEQ_FIELD_NUMBER: _ClassVar[int]
    CONTINUES_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_TIME_FIELD_NUMBER: _ClassVar[int]
    DELEGATION_ID_FIELD_NUMBER: _ClassVar[int]
    EVALUATION_ID_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    FAIRNESS_KEY_FIELD_NUMBER: _ClassVar[int]
    FORK_OF_FIELD_NUMBER: _ClassVar[int]
    INPUT_FIELD_NUMBER: _ClassVar[int]
    LAST_SEQ_FIELD_NUMBER: _ClassVar[int]
    PARENT_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    REPLAY_OF_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ROOT_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEDULE_TICK_FIELD_NUMBER: _ClassVar[int]
    SETTLE_TIME_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SUSPENSION_FIELD_NUMBER: _ClassVar[int]
    THREAD_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    WAITING_ON_FIELD_NUMBER: _ClassVar[int]
    WAITING_SINCE_FIELD_NUMBER: _ClassVar[int]
    abort_cause: _record_pb2.AbortCause
    alias: str
    alias_side: _alias_pb2.AliasSide
    answer: str
    attempt: int
    concurrency_key: str
    concurrency_place: int
    concurrency_seq: int
    continues_run_id: str
    create_time: _timestamp_pb2.Timestamp
    deadline_time: _timestamp_pb2.Timestamp
    delegation_id: str
    evaluation_id: str
    failure: _status_pb2.Status
    fairness_key: str
    fork_of: _record_pb2.ForkOrigin
    input: str
    last_seq: int
    parent_run_id: str
    priority: int
    replay_of: str
    request_id: str
    root_run_id: str
    run_id: str
    schedule_id: str
    schedule_tick: _timestamp_pb2.Timestamp
    settle_time: _timestamp_pb2.Timestamp
    spec: str
    state: _record_pb2.RunState
    suspension: Suspension
    thread_id: str
    turn: int
    update_time: _timestamp_pb2.Timestamp
    usage: _record_pb2.Usage
    version: str
    waiting: bool
    waiting_on: str
    waiting_since: _timestamp_pb2.Timestamp
    def __init__(self, run_id: _Optional[str] = ..., spec: _Optional[str] = ..., version: _Optional[str] = ..., state: _Optional[_Union[_record_pb2.RunState, str]] = ..., abort_cause: _Optional[_Union[_record_pb2.AbortCause, str]] = ..., failure: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., suspension: _Optional[_Union[Suspension, _Mapping]] = ..., answer: _Optional[str] = ..., usage: _Optional[_Union[_record_pb2.Usage, _Mapping]] = ..., input: _Optional[str] = ..., request_id: _Optional[str] = ..., parent_run_id: _Optional[str] = ..., root_run_id: _Optional[str] = ..., delegation_id: _Optional[str] = ..., attempt: _Optional[int] = ..., turn: _Optional[int] = ..., last_seq: _Optional[int] = ..., create_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., settle_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., deadline_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., thread_id: _Optional[str] = ..., continues_run_id: _Optional[str] = ..., waiting: bool = ..., fork_of: _Optional[_Union[_record_pb2.ForkOrigin, _Mapping]] = ..., schedule_id: _Optional[str] = ..., schedule_tick: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., priority: _Optional[int] = ..., fairness_key: _Optional[str] = ..., concurrency_key: _Optional[str] = ..., concurrency_place: _Optional[int] = ..., waiting_on: _Optional[str] = ..., waiting_since: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., concurrency_seq: _Optional[int] = ..., alias: _Optional[str] = ..., alias_side: _Optional[_Union[_alias_pb2.AliasSide, str]] = ..., evaluation_id: _Optional[str] = ..., replay_of: _Optional[str] = ...) -> None: ...

class SendMessageRequest(_message.Message):
    __slots__ = ["mode", "run_id", "text"]
    MODE_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    mode: _record_pb2.MessageMode
    run_id: str
    text: str
    def __init__(self, run_id: _Optional[str] = ..., text: _Optional[str] = ..., mode: _Optional[_Union[_record_pb2.MessageMode, str]] = ...) -> None: ...

class SendMessageResponse(_message.Message):
    __slots__ = ["seq"]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    seq: int
    def __init__(self, seq: _Optional[int] = ...) -> None: ...

class StartRunRequest(_message.Message):
    __slots__ = ["concurrency_key", "concurrency_limit", "deadline", "fairness_key", "follow_alias", "input", "priority", "request_id", "spec", "start_at", "sticky_key", "thread_id", "thread_strategy", "version"]
    CONCURRENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    CONCURRENCY_LIMIT_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    FAIRNESS_KEY_FIELD_NUMBER: _ClassVar[int]
    FOLLOW_ALIAS_FIELD_NUMBER: _ClassVar[int]
    INPUT_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    START_AT_FIELD_NUMBER: _ClassVar[int]
    STICKY_KEY_FIELD_NUMBER: _ClassVar[int]
    THREAD_ID_FIELD_NUMBER: _ClassVar[int]
    THREAD_STRATEGY_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    concurrency_key: str
    concurrency_limit: int
    deadline: _duration_pb2.Duration
    fairness_key: str
    follow_alias: bool
    input: str
    priority: int
    request_id: str
    spec: str
    start_at: _timestamp_pb2.Timestamp
    sticky_key: str
    thread_id: str
    thread_strategy: _spec_pb2.ThreadStrategy
    version: str
    def __init__(self, spec: _Optional[str] = ..., version: _Optional[str] = ..., input: _Optional[str] = ..., request_id: _Optional[str] = ..., deadline: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., thread_id: _Optional[str] = ..., thread_strategy: _Optional[_Union[_spec_pb2.ThreadStrategy, str]] = ..., start_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., priority: _Optional[int] = ..., fairness_key: _Optional[str] = ..., concurrency_key: _Optional[str] = ..., concurrency_limit: _Optional[int] = ..., follow_alias: bool = ..., sticky_key: _Optional[str] = ...) -> None: ...

class StartRunResponse(_message.Message):
    __slots__ = ["created", "run", "steered"]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    STEERED_FIELD_NUMBER: _ClassVar[int]
    created: bool
    run: Run
    steered: bool
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ..., created: bool = ..., steered: bool = ...) -> None: ...

class StreamTextRequest(_message.Message):
    __slots__ = ["from_offset", "from_seq", "heartbeat_interval", "run_id"]
    FROM_OFFSET_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    from_offset: int
    from_seq: int
    heartbeat_interval: _duration_pb2.Duration
    run_id: str
    def __init__(self, run_id: _Optional[str] = ..., heartbeat_interval: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., from_seq: _Optional[int] = ..., from_offset: _Optional[int] = ...) -> None: ...

class StreamTextResponse(_message.Message):
    __slots__ = ["committed", "discarded", "final", "heartbeat_time", "offset", "seq", "text", "turn"]
    COMMITTED_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_TIME_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    committed: bool
    discarded: bool
    final: bool
    heartbeat_time: _timestamp_pb2.Timestamp
    offset: int
    seq: int
    text: str
    turn: int
    def __init__(self, text: _Optional[str] = ..., turn: _Optional[int] = ..., final: bool = ..., heartbeat_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., seq: _Optional[int] = ..., offset: _Optional[int] = ..., committed: bool = ..., discarded: bool = ...) -> None: ...

class Suspension(_message.Message):
    __slots__ = ["approval_call", "approval_reason", "budget", "delegation_ids", "expire_time", "in_doubt", "question", "reason", "tool_calls", "wake_time"]
    APPROVAL_CALL_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_REASON_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    DELEGATION_IDS_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    IN_DOUBT_FIELD_NUMBER: _ClassVar[int]
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALLS_FIELD_NUMBER: _ClassVar[int]
    WAKE_TIME_FIELD_NUMBER: _ClassVar[int]
    approval_call: _record_pb2.ToolCall
    approval_reason: str
    budget: _record_pb2.BudgetAsk
    delegation_ids: _containers.RepeatedScalarFieldContainer[str]
    expire_time: _timestamp_pb2.Timestamp
    in_doubt: bool
    question: str
    reason: _record_pb2.SuspensionReason
    tool_calls: _containers.RepeatedCompositeFieldContainer[_record_pb2.ToolCall]
    wake_time: _timestamp_pb2.Timestamp
    def __init__(self, reason: _Optional[_Union[_record_pb2.SuspensionReason, str]] = ..., expire_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., tool_calls: _Optional[_Iterable[_Union[_record_pb2.ToolCall, _Mapping]]] = ..., question: _Optional[str] = ..., approval_call: _Optional[_Union[_record_pb2.ToolCall, _Mapping]] = ..., approval_reason: _Optional[str] = ..., delegation_ids: _Optional[_Iterable[str]] = ..., in_doubt: bool = ..., wake_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., budget: _Optional[_Union[_record_pb2.BudgetAsk, _Mapping]] = ...) -> None: ...

class Thread(_message.Message):
    __slots__ = ["active_run_id", "create_time", "last_run_id", "run_count", "thread_id", "update_time"]
    ACTIVE_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    LAST_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_COUNT_FIELD_NUMBER: _ClassVar[int]
    THREAD_ID_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    active_run_id: str
    create_time: _timestamp_pb2.Timestamp
    last_run_id: str
    run_count: int
    thread_id: str
    update_time: _timestamp_pb2.Timestamp
    def __init__(self, thread_id: _Optional[str] = ..., active_run_id: _Optional[str] = ..., last_run_id: _Optional[str] = ..., run_count: _Optional[int] = ..., create_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ToolCallDelta(_message.Message):
    __slots__ = ["arguments", "id", "index", "name"]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    arguments: str
    id: str
    index: int
    name: str
    def __init__(self, index: _Optional[int] = ..., id: _Optional[str] = ..., name: _Optional[str] = ..., arguments: _Optional[str] = ...) -> None: ...

class ToolCallReport(_message.Message):
    __slots__ = ["call", "error", "in_doubt", "output", "turn"]
    CALL_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    IN_DOUBT_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    call: _record_pb2.ToolCall
    error: _status_pb2.Status
    in_doubt: bool
    output: _struct_pb2.Value
    turn: int
    def __init__(self, call: _Optional[_Union[_record_pb2.ToolCall, _Mapping]] = ..., output: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., error: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., turn: _Optional[int] = ..., in_doubt: bool = ...) -> None: ...

class WaitRunRequest(_message.Message):
    __slots__ = ["run_id", "wait"]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    WAIT_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    wait: _duration_pb2.Duration
    def __init__(self, run_id: _Optional[str] = ..., wait: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class WaitRunResponse(_message.Message):
    __slots__ = ["run"]
    RUN_FIELD_NUMBER: _ClassVar[int]
    run: Run
    def __init__(self, run: _Optional[_Union[Run, _Mapping]] = ...) -> None: ...

class WatchRunRequest(_message.Message):
    __slots__ = ["from_offset", "from_seq", "heartbeat_interval", "include_deltas", "run_id"]
    FROM_OFFSET_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_DELTAS_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    from_offset: int
    from_seq: int
    heartbeat_interval: _duration_pb2.Duration
    include_deltas: bool
    run_id: str
    def __init__(self, run_id: _Optional[str] = ..., from_seq: _Optional[int] = ..., heartbeat_interval: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., from_offset: _Optional[int] = ..., include_deltas: bool = ...) -> None: ...

class WatchRunResponse(_message.Message):
    __slots__ = ["delta", "heartbeat_time", "record"]
    DELTA_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_TIME_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    delta: ModelDelta
    heartbeat_time: _timestamp_pb2.Timestamp
    record: _record_pb2.Record
    def __init__(self, record: _Optional[_Union[_record_pb2.Record, _Mapping]] = ..., heartbeat_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., delta: _Optional[_Union[ModelDelta, _Mapping]] = ...) -> None: ...
