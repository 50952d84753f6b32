package io.jdra.cel;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** CEL type names of runtime values, spelled as cel-go prints them in messages. */
final class ValueTypes {
  private ValueTypes() {}

  static String typeName(Object v) {
    return switch (v) {
      case null -> "null_type";
      case Boolean b -> "bool";
      case Long l -> "int";
      case UnsignedLong u -> "uint";
      case Double d -> "double";
      case String s -> "string";
      case CelByteString b -> "bytes";
      case NullValue n -> "null_type";
      case List<?> l -> "list";
      case Map<?, ?> m -> "map";
      case Semver s -> "kubernetes.Semver";
      case QuantityValue q -> "kubernetes.Quantity";
      case IpValue.Cidr c -> "net.CIDR";
      case IpValue ip -> "net.IP";
      case UrlValue u -> "kubernetes.URL";
      case Optional<?> o -> "optional_type";
      case java.time.Duration d -> "google.protobuf.Duration";
      case java.time.Instant i -> "google.protobuf.Timestamp";
      default -> v.getClass().getSimpleName();
    };
  }
}
