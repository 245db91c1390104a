// protojson <-> proto-loader objects, driven by protobufjs type descriptors.
//
// proto-loader (keepCase false, longs/enums as String, defaults, oneofs)
// encodes with protobufjs' Type.fromObject and decodes with toObject, so its
// objects carry well-known types in their message form: a Duration is
// {seconds, nanos}, a Value is {stringValue: ...}, an Any is {typeUrl,
// value: Buffer}. protojson writes them as "20s", "hi" and {"@type", ...}.
// These two functions convert between the two forms.

import protobuf from 'protobufjs';
import { LOADER_OPTIONS } from './protos.js';

const WRAPPERS = new Set([
  'DoubleValue', 'FloatValue', 'Int64Value', 'UInt64Value', 'Int32Value', 'UInt32Value',
  'BoolValue', 'StringValue', 'BytesValue',
].map((n) => `google.protobuf.${n}`));

/** Types whose protojson form is not an object of fields: inside an Any they sit under "value". */
const SPECIAL_JSON = new Set([
  ...WRAPPERS,
  ...['Duration', 'Timestamp', 'Struct', 'Value', 'ListValue', 'FieldMask', 'Any'].map((n) => `google.protobuf.${n}`),
]);

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const INT_TYPES = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32']);
const FLOAT_TYPES = new Set(['double', 'float']);

/** The full name of a type without protobufjs' leading dot. */
function fullName(type) {
  return type.fullName.replace(/^\./, '');
}

// ---------------------------------------------------------------------------
// protojson -> proto-loader object

/**
 * Converts a protojson value of a message type into the object proto-loader
 * serializes (Type.fromObject's input).
 * @param {protobuf.Type} type the message type
 * @param {*} json the parsed protojson value
 * @returns {object}
 * @throws {Error} on an unknown field or a malformed well-known value
 */
export function fromProtoJSON(type, json) {
  return messageFromJSON(type, json, fullName(type));
}

function messageFromJSON(type, json, where) {
  const name = fullName(type);
  switch (name) {
    case 'google.protobuf.Duration':
      return parseDuration(json, where);
    case 'google.protobuf.Timestamp':
      return parseTimestamp(json, where);
    case 'google.protobuf.Struct':
      return structFromJSON(json, where);
    case 'google.protobuf.Value':
      return valueFromJSON(json, where);
    case 'google.protobuf.ListValue':
      if (!Array.isArray(json)) throw new Error(`${where}: a ListValue must be an array`);
      return { values: json.map((v, i) => valueFromJSON(v, `${where}[${i}]`)) };
    case 'google.protobuf.FieldMask':
      return { paths: String(json).split(',').filter(Boolean).map((p) => p.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)) };
    case 'google.protobuf.Any':
      return anyFromJSON(type, json, where);
    default:
      if (WRAPPERS.has(name)) return { value: scalarFromJSON(type.fields.value, json, `${where}.value`) };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new Error(`${where}: ${name} must be a JSON object`);
  }
  const out = {};
  for (const [key, value] of Object.entries(json)) {
    const field = type.fields[key] ?? type.fields[protobuf.util.camelCase(key)];
    if (!field) throw new Error(`${where}: ${name} has no field ${key}`);
    const v = fieldFromJSON(field, value, `${where}.${key}`);
    if (v !== undefined) out[field.name] = v;
  }
  return out;
}

function fieldFromJSON(field, value, where) {
  field.resolve();
  if (value === null && !isValueType(field.resolvedType)) return undefined;
  if (field.map) {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = singleFromJSON(field, v, `${where}.${k}`);
    return out;
  }
  if (field.repeated) {
    if (!Array.isArray(value)) throw new Error(`${where}: must be an array`);
    return value.map((v, i) => singleFromJSON(field, v, `${where}[${i}]`));
  }
  return singleFromJSON(field, value, where);
}

function isValueType(t) {
  return t instanceof protobuf.Type && fullName(t) === 'google.protobuf.Value';
}

function singleFromJSON(field, value, where) {
  const t = field.resolvedType;
  if (t instanceof protobuf.Type) return messageFromJSON(t, value, where);
  if (t instanceof protobuf.Enum) {
    if (typeof value === 'number') return value;
    if (!(value in t.values)) throw new Error(`${where}: ${value} is not a value of ${fullName(t)}`);
    return value;
  }
  return scalarFromJSON(field, value, where);
}

function scalarFromJSON(field, value, where) {
  const kind = field.type;
  if (LONG_TYPES.has(kind)) return String(value);
  if (INT_TYPES.has(kind)) return Number(value);
  if (FLOAT_TYPES.has(kind)) return typeof value === 'string' ? Number(value) : value;
  if (kind === 'bytes') return Buffer.from(String(value), 'base64');
  if (kind === 'bool' && typeof value !== 'boolean') throw new Error(`${where}: must be a boolean`);
  if (kind === 'string' && typeof value !== 'string') throw new Error(`${where}: must be a string`);
  return value;
}

function structFromJSON(json, where) {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new Error(`${where}: a Struct must be a JSON object`);
  }
  const fields = {};
  for (const [k, v] of Object.entries(json)) fields[k] = valueFromJSON(v, `${where}.${k}`);
  return { fields };
}

function valueFromJSON(v, where) {
  if (v === null) return { nullValue: 'NULL_VALUE' };
  switch (typeof v) {
    case 'number':
      return { numberValue: v };
    case 'string':
      return { stringValue: v };
    case 'boolean':
      return { boolValue: v };
    case 'object':
      if (Array.isArray(v)) return { listValue: { values: v.map((x, i) => valueFromJSON(x, `${where}[${i}]`)) } };
      return { structValue: structFromJSON(v, where) };
    default:
      throw new Error(`${where}: ${typeof v} is not a JSON value`);
  }
}

function anyFromJSON(type, json, where) {
  const url = json?.['@type'];
  if (typeof url !== 'string') throw new Error(`${where}: an Any needs "@type"`);
  const inner = lookupMessage(type.root, url);
  if (!inner) throw new Error(`${where}: unknown type ${url}`);
  const { '@type': _ignored, ...rest } = json;
  const obj = messageFromJSON(inner, SPECIAL_JSON.has(fullName(inner)) ? rest.value : rest, where);
  // protobufjs' bundled any.proto keeps the name type_url whatever keepCase says.
  const urlField = type.fields.type_url ? 'type_url' : 'typeUrl';
  return { [urlField]: url, value: Buffer.from(inner.encode(inner.fromObject(obj)).finish()) };
}

/**
 * Parses a protojson Duration ("20s", "0.3s", "-1.5s").
 * @param {string} s
 * @param {string} [where]
 * @returns {{seconds: string, nanos: number}}
 */
export function parseDuration(s, where = 'duration') {
  const m = typeof s === 'string' && /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(s);
  if (!m) throw new Error(`${where}: ${JSON.stringify(s)} is not a protojson Duration like "1.5s"`);
  const neg = Boolean(m[1]);
  const nanos = Number((m[3] ?? '').padEnd(9, '0'));
  return { seconds: (neg && m[2] !== '0' ? '-' : '') + String(BigInt(m[2])), nanos: neg ? -nanos : nanos };
}

function parseTimestamp(s, where) {
  const m = typeof s === 'string' && /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i.exec(s);
  const ms = m ? Date.parse(`${m[1]}${m[3].toUpperCase()}`) : NaN;
  if (Number.isNaN(ms)) throw new Error(`${where}: ${JSON.stringify(s)} is not an RFC 3339 timestamp`);
  return { seconds: String(Math.floor(ms / 1000)), nanos: Number((m[2] ?? '').padEnd(9, '0')) };
}

// ---------------------------------------------------------------------------
// proto-loader object -> protojson

/**
 * Converts an object proto-loader decoded (with LOADER_OPTIONS) into
 * protojson: lowerCamelCase names, default values left out, well-known
 * types in their JSON form, 64-bit integers as strings, bytes as base64,
 * Any as {"@type", ...}.
 * @param {protobuf.Type} type the message type
 * @param {object} obj
 * @returns {*}
 */
export function toProtoJSON(type, obj) {
  return messageToJSON(type, obj);
}

function messageToJSON(type, obj) {
  const name = fullName(type);
  switch (name) {
    case 'google.protobuf.Duration':
      return formatDuration(obj);
    case 'google.protobuf.Timestamp':
      return formatTimestamp(obj);
    case 'google.protobuf.Struct':
      return structToJSON(obj);
    case 'google.protobuf.Value':
      return valueToJSON(obj);
    case 'google.protobuf.ListValue':
      return (obj?.values ?? []).map(valueToJSON);
    case 'google.protobuf.FieldMask':
      return (obj?.paths ?? []).map((p) => protobuf.util.camelCase(p)).join(',');
    case 'google.protobuf.Any':
      return anyToJSON(type, obj);
    default:
      if (WRAPPERS.has(name)) return scalarToJSON(type.fields.value, obj?.value);
  }
  const out = {};
  for (const field of type.fieldsArray) {
    field.resolve();
    const v = obj?.[field.name];
    if (v === undefined || v === null) continue;
    if (!field.partOf && isDefault(field, v)) continue;
    if (field.map) {
      const m = {};
      for (const [k, x] of Object.entries(v)) m[k] = singleToJSON(field, x);
      out[field.name] = m;
    } else if (field.repeated) {
      out[field.name] = v.map((x) => singleToJSON(field, x));
    } else {
      out[field.name] = singleToJSON(field, v);
    }
  }
  return out;
}

function isDefault(field, v) {
  if (field.map) return Object.keys(v).length === 0;
  if (field.repeated) return v.length === 0;
  const t = field.resolvedType;
  if (t instanceof protobuf.Type) return false;
  if (t instanceof protobuf.Enum) return v === 0 || t.values[v] === 0;
  if (field.type === 'bytes') return v.length === 0;
  return v === '' || v === 0 || v === false || v === '0';
}

function singleToJSON(field, v) {
  const t = field.resolvedType;
  if (t instanceof protobuf.Type) return messageToJSON(t, v);
  if (t instanceof protobuf.Enum) return typeof v === 'number' ? (t.valuesById[v] ?? v) : v;
  return scalarToJSON(field, v);
}

function scalarToJSON(field, v) {
  if (LONG_TYPES.has(field.type)) return String(v);
  if (FLOAT_TYPES.has(field.type) && !Number.isFinite(v)) {
    return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
  }
  if (field.type === 'bytes') return Buffer.from(v).toString('base64');
  return v;
}

function structToJSON(obj) {
  const out = {};
  for (const [k, v] of Object.entries(obj?.fields ?? {})) out[k] = valueToJSON(v);
  return out;
}

function valueToJSON(v) {
  const kind = v?.kind ?? ['nullValue', 'numberValue', 'stringValue', 'boolValue', 'structValue', 'listValue'].find((k) => v?.[k] != null);
  switch (kind) {
    case 'numberValue':
      return v.numberValue;
    case 'stringValue':
      return v.stringValue;
    case 'boolValue':
      return v.boolValue;
    case 'structValue':
      return structToJSON(v.structValue);
    case 'listValue':
      return (v.listValue?.values ?? []).map(valueToJSON);
    default:
      return null;
  }
}

function anyToJSON(type, obj) {
  const url = obj?.type_url || obj?.typeUrl || '';
  const inner = lookupMessage(type.root, url);
  if (!inner) return { '@type': url, value: Buffer.from(obj?.value ?? []).toString('base64') };
  const decoded = inner.toObject(inner.decode(obj?.value ?? new Uint8Array()), { ...LOADER_OPTIONS, arrays: true, objects: true });
  const json = messageToJSON(inner, decoded);
  return SPECIAL_JSON.has(fullName(inner)) ? { '@type': url, value: json } : { '@type': url, ...json };
}

/** The message type an Any's type URL names, or null. */
function lookupMessage(root, url) {
  const name = url.slice(url.lastIndexOf('/') + 1);
  if (!name) return null;
  const t = root.lookup(name);
  return t instanceof protobuf.Type ? t : null;
}

/**
 * Formats a Duration {seconds, nanos} as protojson ("20s", "1.500s").
 * @param {{seconds?: string|number, nanos?: number}} d
 * @returns {string}
 */
export function formatDuration(d) {
  const secs = BigInt(String(d?.seconds ?? 0));
  const nanos = Number(d?.nanos ?? 0);
  const neg = secs < 0n || nanos < 0;
  const abs = (secs < 0n ? -secs : secs).toString();
  return `${neg ? '-' : ''}${abs}${fraction(Math.abs(nanos))}s`;
}

function formatTimestamp(t) {
  const secs = Number(t?.seconds ?? 0);
  const iso = new Date(secs * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  return `${iso}${fraction(Number(t?.nanos ?? 0))}Z`;
}

/** protojson's fraction: none, or 3, 6 or 9 digits. */
function fraction(nanos) {
  if (!nanos) return '';
  const s = String(nanos).padStart(9, '0');
  if (s.endsWith('000000')) return `.${s.slice(0, 3)}`;
  if (s.endsWith('000')) return `.${s.slice(0, 6)}`;
  return `.${s}`;
}
