package io.jdra.apiserver.protobuf;

/**
 * Reads small fixed messages (the envelope, metav1.Time, resource.Quantity, ...) whose fields are
 * all scalars. Stateless.
 */
final class Scalars {
  /** A field of such a message: its number, wire type and Go field name (for errors). */
  record Spec(int number, int wireType, String goName) {}

  private Scalars() {}

  /**
   * The last value of each listed field, indexed by field number: a Long for varint and fixed
   * fields, a {@link Wire.Slice} for length-delimited ones, null when absent. {@code specs} are
   * fields 1, 2, ... in order; other fields are skipped.
   */
  static Object[] read(String message, Wire.Slice bytes, Spec... specs) {
    Object[] values = new Object[specs.length + 1];
    Wire w = bytes.wire();
    while (!w.atEnd()) {
      long tag = w.varint();
      int wt = (int) (tag & 7);
      int num = (int) (tag >>> 3);
      checkTag(message, tag, wt, num);
      Spec spec = num < values.length ? specs[num - 1] : null;
      if (spec == null) {
        w.skip(wt);
        continue;
      }
      if (wt != spec.wireType()) {
        throw wrongWireType(wt, spec.goName());
      }
      values[num] =
          switch (wt) {
            case Wire.VARINT -> w.varint();
            case Wire.FIXED64 -> w.fixed64();
            case Wire.FIXED32 -> (long) w.fixed32();
            default -> w.bytes();
          };
    }
    return values;
  }

  /** The checks Go's generated unmarshallers make on every tag before looking at the field. */
  static void checkTag(String message, long tag, int wireType, int number) {
    if (wireType == Wire.END_GROUP) {
      throw new Wire.Malformed("proto: " + message + ": wiretype end group for non-group");
    }
    if (number <= 0) {
      throw new Wire.Malformed(
          "proto: "
              + message
              + ": illegal tag "
              + number
              + " (wire type "
              + Long.toUnsignedString(tag)
              + ")");
    }
  }

  static Wire.Malformed wrongWireType(int wireType, String goName) {
    return new Wire.Malformed("proto: wrong wireType = " + wireType + " for field " + goName);
  }

  static String text(Object value) {
    return value == null ? "" : ((Wire.Slice) value).utf8();
  }

  static long number(Object value) {
    return value == null ? 0 : (Long) value;
  }
}
