from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AcknowledgeMessagesRequest(_message.Message):
    __slots__ = ["channel", "message_ids"]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_IDS_FIELD_NUMBER: _ClassVar[int]
    channel: str
    message_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, channel: _Optional[str] = ..., message_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class AcknowledgeMessagesResponse(_message.Message):
    __slots__ = ["acknowledged"]
    ACKNOWLEDGED_FIELD_NUMBER: _ClassVar[int]
    acknowledged: int
    def __init__(self, acknowledged: _Optional[int] = ...) -> None: ...

class BusMessage(_message.Message):
    __slots__ = ["channel", "content", "delivery_count", "in_reply_to", "message_id", "send_time", "sender"]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_COUNT_FIELD_NUMBER: _ClassVar[int]
    IN_REPLY_TO_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_ID_FIELD_NUMBER: _ClassVar[int]
    SENDER_FIELD_NUMBER: _ClassVar[int]
    SEND_TIME_FIELD_NUMBER: _ClassVar[int]
    channel: str
    content: _struct_pb2.Value
    delivery_count: int
    in_reply_to: str
    message_id: str
    send_time: _timestamp_pb2.Timestamp
    sender: str
    def __init__(self, message_id: _Optional[str] = ..., channel: _Optional[str] = ..., sender: _Optional[str] = ..., content: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., in_reply_to: _Optional[str] = ..., send_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., delivery_count: _Optional[int] = ...) -> None: ...

class BusServiceSendMessageRequest(_message.Message):
    __slots__ = ["channel", "content", "in_reply_to", "sender"]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    IN_REPLY_TO_FIELD_NUMBER: _ClassVar[int]
    SENDER_FIELD_NUMBER: _ClassVar[int]
    channel: str
    content: _struct_pb2.Value
    in_reply_to: str
    sender: str
    def __init__(self, sender: _Optional[str] = ..., channel: _Optional[str] = ..., content: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., in_reply_to: _Optional[str] = ...) -> None: ...

class BusServiceSendMessageResponse(_message.Message):
    __slots__ = ["message"]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: BusMessage
    def __init__(self, message: _Optional[_Union[BusMessage, _Mapping]] = ...) -> None: ...

class ReceiveRequest(_message.Message):
    __slots__ = ["ack_timeout", "channel", "in_reply_to"]
    ACK_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    IN_REPLY_TO_FIELD_NUMBER: _ClassVar[int]
    ack_timeout: _duration_pb2.Duration
    channel: str
    in_reply_to: str
    def __init__(self, channel: _Optional[str] = ..., ack_timeout: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., in_reply_to: _Optional[str] = ...) -> None: ...

class ReceiveResponse(_message.Message):
    __slots__ = ["message"]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: BusMessage
    def __init__(self, message: _Optional[_Union[BusMessage, _Mapping]] = ...) -> None: ...
