from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CreateWebhookRequest(_message.Message):
    __slots__ = ["subscription"]
    SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    subscription: WebhookSubscription
    def __init__(self, subscription: _Optional[_Union[WebhookSubscription, _Mapping]] = ...) -> None: ...

class CreateWebhookResponse(_message.Message):
    __slots__ = ["secret", "subscription"]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    secret: str
    subscription: WebhookSubscription
    def __init__(self, subscription: _Optional[_Union[WebhookSubscription, _Mapping]] = ..., secret: _Optional[str] = ...) -> None: ...

class DeleteWebhookRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeleteWebhookResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetWebhookRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetWebhookResponse(_message.Message):
    __slots__ = ["subscription"]
    SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    subscription: WebhookSubscription
    def __init__(self, subscription: _Optional[_Union[WebhookSubscription, _Mapping]] = ...) -> None: ...

class ListWebhookAttemptsRequest(_message.Message):
    __slots__ = ["id", "page_size"]
    ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    id: str
    page_size: int
    def __init__(self, id: _Optional[str] = ..., page_size: _Optional[int] = ...) -> None: ...

class ListWebhookAttemptsResponse(_message.Message):
    __slots__ = ["attempts"]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    attempts: _containers.RepeatedCompositeFieldContainer[WebhookAttempt]
    def __init__(self, attempts: _Optional[_Iterable[_Union[WebhookAttempt, _Mapping]]] = ...) -> None: ...

class ListWebhookDeliveriesRequest(_message.Message):
    __slots__ = ["dead_only", "id", "page_size"]
    DEAD_ONLY_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    dead_only: bool
    id: str
    page_size: int
    def __init__(self, id: _Optional[str] = ..., dead_only: bool = ..., page_size: _Optional[int] = ...) -> None: ...

class ListWebhookDeliveriesResponse(_message.Message):
    __slots__ = ["deliveries"]
    DELIVERIES_FIELD_NUMBER: _ClassVar[int]
    deliveries: _containers.RepeatedCompositeFieldContainer[WebhookDelivery]
    def __init__(self, deliveries: _Optional[_Iterable[_Union[WebhookDelivery, _Mapping]]] = ...) -> None: ...

class ListWebhooksRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class ListWebhooksResponse(_message.Message):
    __slots__ = ["subscriptions"]
    SUBSCRIPTIONS_FIELD_NUMBER: _ClassVar[int]
    subscriptions: _containers.RepeatedCompositeFieldContainer[WebhookSubscription]
    def __init__(self, subscriptions: _Optional[_Iterable[_Union[WebhookSubscription, _Mapping]]] = ...) -> None: ...

class RedeliverWebhookRequest(_message.Message):
    __slots__ = ["delivery_id", "id"]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    delivery_id: str
    id: str
    def __init__(self, id: _Optional[str] = ..., delivery_id: _Optional[str] = ...) -> None: ...

class RedeliverWebhookResponse(_message.Message):
    __slots__ = ["redelivered"]
    REDELIVERED_FIELD_NUMBER: _ClassVar[int]
    redelivered: int
    def __init__(self, redelivered: _Optional[int] = ...) -> None: ...

class RotateWebhookSecretRequest(_message.Message):
    __slots__ = ["id", "previous_secret_ttl"]
    ID_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SECRET_TTL_FIELD_NUMBER: _ClassVar[int]
    id: str
    previous_secret_ttl: _duration_pb2.Duration
    def __init__(self, id: _Optional[str] = ..., previous_secret_ttl: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class RotateWebhookSecretResponse(_message.Message):
    __slots__ = ["secret", "subscription"]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    secret: str
    subscription: WebhookSubscription
    def __init__(self, subscription: _Optional[_Union[WebhookSubscription, _Mapping]] = ..., secret: _Optional[str] = ...) -> None: ...

class UpdateWebhookRequest(_message.Message):
    __slots__ = ["subscription", "update_mask"]
    SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    subscription: WebhookSubscription
    update_mask: _field_mask_pb2.FieldMask
    def __init__(self, subscription: _Optional[_Union[WebhookSubscription, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ...) -> None: ...

class UpdateWebhookResponse(_message.Message):
    __slots__ = ["subscription"]
    SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    subscription: WebhookSubscription
    def __init__(self, subscription: _Optional[_Union[WebhookSubscription, _Mapping]] = ...) -> None: ...

class WebhookAttempt(_message.Message):
    __slots__ = ["attempt", "delivery_id", "error", "http_status", "latency", "time", "type"]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    HTTP_STATUS_FIELD_NUMBER: _ClassVar[int]
    LATENCY_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    delivery_id: str
    error: str
    http_status: int
    latency: _duration_pb2.Duration
    time: _timestamp_pb2.Timestamp
    type: str
    def __init__(self, delivery_id: _Optional[str] = ..., type: _Optional[str] = ..., attempt: _Optional[int] = ..., http_status: _Optional[int] = ..., latency: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., error: _Optional[str] = ..., time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class WebhookDelivery(_message.Message):
    __slots__ = ["attempts", "create_time", "id", "last_error", "last_status", "next_attempt_time", "run_id", "state", "type"]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_FIELD_NUMBER: _ClassVar[int]
    LAST_STATUS_FIELD_NUMBER: _ClassVar[int]
    NEXT_ATTEMPT_TIME_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    attempts: int
    create_time: _timestamp_pb2.Timestamp
    id: str
    last_error: str
    last_status: int
    next_attempt_time: _timestamp_pb2.Timestamp
    run_id: str
    state: str
    type: str
    def __init__(self, id: _Optional[str] = ..., type: _Optional[str] = ..., run_id: _Optional[str] = ..., state: _Optional[str] = ..., attempts: _Optional[int] = ..., last_status: _Optional[int] = ..., last_error: _Optional[str] = ..., create_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., next_attempt_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class WebhookSubscription(_message.Message):
    __slots__ = ["create_time", "disabled_reason", "enabled", "event_types", "id", "previous_secret_expire_time", "spec_filter", "update_time", "url"]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    DISABLED_REASON_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SECRET_EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    SPEC_FILTER_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    create_time: _timestamp_pb2.Timestamp
    disabled_reason: str
    enabled: bool
    event_types: _containers.RepeatedScalarFieldContainer[str]
    id: str
    previous_secret_expire_time: _timestamp_pb2.Timestamp
    spec_filter: str
    update_time: _timestamp_pb2.Timestamp
    url: str
    def __init__(self, id: _Optional[str] = ..., url: _Optional[str] = ..., event_types: _Optional[_Iterable[str]] = ..., spec_filter: _Optional[str] = ..., enabled: bool = ..., disabled_reason: _Optional[str] = ..., create_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., previous_secret_expire_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
