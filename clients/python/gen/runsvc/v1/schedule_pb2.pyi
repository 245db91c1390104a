from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from runsvc.v1 import run_pb2 as _run_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
OVERLAP_POLICY_ALLOW: OverlapPolicy
OVERLAP_POLICY_ENQUEUE: OverlapPolicy
OVERLAP_POLICY_INTERRUPT_PREVIOUS: OverlapPolicy
OVERLAP_POLICY_SKIP: OverlapPolicy
OVERLAP_POLICY_UNSPECIFIED: OverlapPolicy
TICK_OUTCOME_BUFFERED: TickOutcome
TICK_OUTCOME_FAILED: TickOutcome
TICK_OUTCOME_SKIPPED_CATCHUP: TickOutcome
TICK_OUTCOME_SKIPPED_OVERLAP: TickOutcome
TICK_OUTCOME_STARTED: TickOutcome
TICK_OUTCOME_STARTING: TickOutcome
TICK_OUTCOME_TRIGGERED: TickOutcome
TICK_OUTCOME_UNSPECIFIED: TickOutcome

class CreateScheduleRequest(_message.Message):
    __slots__ = ["schedule"]
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    schedule: Schedule
    def __init__(self, schedule: _Optional[_Union[Schedule, _Mapping]] = ...) -> None: ...

class CreateScheduleResponse(_message.Message):
    __slots__ = ["schedule"]
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    schedule: Schedule
    def __init__(self, schedule: _Optional[_Union[Schedule, _Mapping]] = ...) -> None: ...

class DeleteScheduleRequest(_message.Message):
    __slots__ = ["schedule_id"]
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    schedule_id: str
    def __init__(self, schedule_id: _Optional[str] = ...) -> None: ...

class DeleteScheduleResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetScheduleRequest(_message.Message):
    __slots__ = ["schedule_id"]
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    schedule_id: str
    def __init__(self, schedule_id: _Optional[str] = ...) -> None: ...

class GetScheduleResponse(_message.Message):
    __slots__ = ["schedule"]
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    schedule: Schedule
    def __init__(self, schedule: _Optional[_Union[Schedule, _Mapping]] = ...) -> None: ...

class ListSchedulesRequest(_message.Message):
    __slots__ = ["page_size", "page_token"]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListSchedulesResponse(_message.Message):
    __slots__ = ["next_page_token", "schedules"]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SCHEDULES_FIELD_NUMBER: _ClassVar[int]
    next_page_token: str
    schedules: _containers.RepeatedCompositeFieldContainer[Schedule]
    def __init__(self, schedules: _Optional[_Iterable[_Union[Schedule, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class PauseScheduleRequest(_message.Message):
    __slots__ = ["schedule_id"]
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    schedule_id: str
    def __init__(self, schedule_id: _Optional[str] = ...) -> None: ...

class PauseScheduleResponse(_message.Message):
    __slots__ = ["schedule"]
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    schedule: Schedule
    def __init__(self, schedule: _Optional[_Union[Schedule, _Mapping]] = ...) -> None: ...

class ResumeScheduleRequest(_message.Message):
    __slots__ = ["schedule_id"]
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    schedule_id: str
    def __init__(self, schedule_id: _Optional[str] = ...) -> None: ...

class ResumeScheduleResponse(_message.Message):
    __slots__ = ["schedule"]
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    schedule: Schedule
    def __init__(self, schedule: _Optional[_Union[Schedule, _Mapping]] = ...) -> None: ...

class Schedule(_message.Message):
    __slots__ = ["at", "catchup_window", "count", "create_time", "cron", "end_time", "fairness_key", "id", "input", "interval", "jitter", "max_count", "next_ticks", "overlap", "paused", "priority", "recent_ticks", "spec", "time_zone", "update_time", "version"]
    AT_FIELD_NUMBER: _ClassVar[int]
    CATCHUP_WINDOW_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    CRON_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    FAIRNESS_KEY_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    INPUT_FIELD_NUMBER: _ClassVar[int]
    INTERVAL_FIELD_NUMBER: _ClassVar[int]
    JITTER_FIELD_NUMBER: _ClassVar[int]
    MAX_COUNT_FIELD_NUMBER: _ClassVar[int]
    NEXT_TICKS_FIELD_NUMBER: _ClassVar[int]
    OVERLAP_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    RECENT_TICKS_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    at: _timestamp_pb2.Timestamp
    catchup_window: _duration_pb2.Duration
    count: int
    create_time: _timestamp_pb2.Timestamp
    cron: str
    end_time: _timestamp_pb2.Timestamp
    fairness_key: str
    id: str
    input: str
    interval: _duration_pb2.Duration
    jitter: _duration_pb2.Duration
    max_count: int
    next_ticks: _containers.RepeatedCompositeFieldContainer[_timestamp_pb2.Timestamp]
    overlap: OverlapPolicy
    paused: bool
    priority: int
    recent_ticks: _containers.RepeatedCompositeFieldContainer[ScheduleTick]
    spec: str
    time_zone: str
    update_time: _timestamp_pb2.Timestamp
    version: str
    def __init__(self, id: _Optional[str] = ..., spec: _Optional[str] = ..., version: _Optional[str] = ..., input: _Optional[str] = ..., cron: _Optional[str] = ..., interval: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., time_zone: _Optional[str] = ..., jitter: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., end_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., max_count: _Optional[int] = ..., overlap: _Optional[_Union[OverlapPolicy, str]] = ..., catchup_window: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., paused: bool = ..., next_ticks: _Optional[_Iterable[_Union[_timestamp_pb2.Timestamp, _Mapping]]] = ..., recent_ticks: _Optional[_Iterable[_Union[ScheduleTick, _Mapping]]] = ..., count: _Optional[int] = ..., create_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., priority: _Optional[int] = ..., fairness_key: _Optional[str] = ...) -> None: ...

class ScheduleTick(_message.Message):
    __slots__ = ["outcome", "record_time", "run_id", "tick"]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    RECORD_TIME_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    TICK_FIELD_NUMBER: _ClassVar[int]
    outcome: TickOutcome
    record_time: _timestamp_pb2.Timestamp
    run_id: str
    tick: _timestamp_pb2.Timestamp
    def __init__(self, tick: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., outcome: _Optional[_Union[TickOutcome, str]] = ..., run_id: _Optional[str] = ..., record_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class TriggerScheduleRequest(_message.Message):
    __slots__ = ["schedule_id"]
    SCHEDULE_ID_FIELD_NUMBER: _ClassVar[int]
    schedule_id: str
    def __init__(self, schedule_id: _Optional[str] = ...) -> None: ...

class TriggerScheduleResponse(_message.Message):
    __slots__ = ["run"]
    RUN_FIELD_NUMBER: _ClassVar[int]
    run: _run_pb2.Run
    def __init__(self, run: _Optional[_Union[_run_pb2.Run, _Mapping]] = ...) -> None: ...

class OverlapPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class TickOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
