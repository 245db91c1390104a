from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.rpc import status_pb2 as _status_pb2
from runsvc.v1 import record_pb2 as _record_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AwaitDelegationRequest(_message.Message):
    __slots__ = ["delegation_id", "timeout"]
    DELEGATION_ID_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    delegation_id: str
    timeout: _duration_pb2.Duration
    def __init__(self, delegation_id: _Optional[str] = ..., timeout: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class AwaitDelegationResponse(_message.Message):
    __slots__ = ["delegation"]
    DELEGATION_FIELD_NUMBER: _ClassVar[int]
    delegation: Delegation
    def __init__(self, delegation: _Optional[_Union[Delegation, _Mapping]] = ...) -> None: ...

class DelegateRequest(_message.Message):
    __slots__ = ["parent_run_id", "request_id", "spec", "task", "timeout"]
    ASYNC_FIELD_NUMBER: _ClassVar[int]
    PARENT_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    TASK_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    parent_run_id: str
    request_id: str
    spec: str
    task: str
    timeout: _duration_pb2.Duration
    def __init__(self, parent_run_id: _Optional[str] = ..., spec: _Optional[str] = ..., task: _Optional[str] = ..., timeout: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., request_id: _Optional[str] = ..., **kwargs) -> None: ...

class DelegateResponse(_message.Message):
    __slots__ = ["delegation"]
    DELEGATION_FIELD_NUMBER: _ClassVar[int]
    delegation: Delegation
    def __init__(self, delegation: _Optional[_Union[Delegation, _Mapping]] = ...) -> None: ...

class Delegation(_message.Message):
    __slots__ = ["answer", "child_run_id", "create_time", "delegation_id", "failure", "parent_run_id", "settle_time", "spec", "state", "task"]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    CHILD_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    DELEGATION_ID_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    PARENT_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    SETTLE_TIME_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    TASK_FIELD_NUMBER: _ClassVar[int]
    answer: str
    child_run_id: str
    create_time: _timestamp_pb2.Timestamp
    delegation_id: str
    failure: _status_pb2.Status
    parent_run_id: str
    settle_time: _timestamp_pb2.Timestamp
    spec: str
    state: _record_pb2.RunState
    task: str
    def __init__(self, delegation_id: _Optional[str] = ..., parent_run_id: _Optional[str] = ..., child_run_id: _Optional[str] = ..., spec: _Optional[str] = ..., task: _Optional[str] = ..., state: _Optional[_Union[_record_pb2.RunState, str]] = ..., answer: _Optional[str] = ..., failure: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., create_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., settle_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetDelegationRequest(_message.Message):
    __slots__ = ["delegation_id"]
    DELEGATION_ID_FIELD_NUMBER: _ClassVar[int]
    delegation_id: str
    def __init__(self, delegation_id: _Optional[str] = ...) -> None: ...

class GetDelegationResponse(_message.Message):
    __slots__ = ["delegation"]
    DELEGATION_FIELD_NUMBER: _ClassVar[int]
    delegation: Delegation
    def __init__(self, delegation: _Optional[_Union[Delegation, _Mapping]] = ...) -> None: ...
