package io.jdra.cel;

import static dev.cel.common.types.SimpleType.DYN;
import static dev.cel.common.types.SimpleType.STRING;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.types.ListType;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.jdra.api.validation.GoFormat;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code string.format(list)} of the CEL strings extension (cel-go ext.Strings version >= 1), which
 * CEL-Java lacks: {@code %s %d %f %e %b %o %x %X %%} with an optional precision for {@code %f} and
 * {@code %e}.
 */
final class FormatFunction {
  private FormatFunction() {}

  static void register(FunctionTable t) {
    t.member(
        "format",
        "string_format",
        STRING,
        List.of(STRING, ListType.create(DYN)),
        CelFunctionBinding.from("string_format", String.class, List.class, FormatFunction::format));
  }

  static String format(String fmt, List<?> args) throws CelEvaluationException {
    StringBuilder out = new StringBuilder();
    int argIndex = 0;
    for (int i = 0; i < fmt.length(); i++) {
      char c = fmt.charAt(i);
      if (c != '%') {
        out.append(c);
        continue;
      }
      i++;
      if (i >= fmt.length()) {
        throw new CelEvaluationException("unexpected end of string");
      }
      if (fmt.charAt(i) == '%') {
        out.append('%');
        continue;
      }
      Integer precision = null;
      if (fmt.charAt(i) == '.') {
        int start = ++i;
        while (i < fmt.length() && Character.isDigit(fmt.charAt(i))) {
          i++;
        }
        if (start == i || i >= fmt.length()) {
          throw new CelEvaluationException(
              "could not parse formatting clause: error while parsing precision: could not find end of"
                  + " precision specifier");
        }
        precision = Integer.parseInt(fmt.substring(start, i));
      }
      char verb = fmt.charAt(i);
      if (argIndex >= args.size()) {
        throw new CelEvaluationException("index " + argIndex + " out of range");
      }
      out.append(clause(verb, precision, args.get(argIndex++)));
    }
    return out.toString();
  }

  private static String clause(char verb, Integer precision, Object arg)
      throws CelEvaluationException {
    return switch (verb) {
      case 's' -> asString(arg, false);
      case 'd' -> integer(arg);
      case 'f' -> fixed(arg, precision == null ? 6 : precision);
      case 'e' -> scientific(arg, precision == null ? 6 : precision);
      case 'b' -> radix(arg, 2);
      case 'o' -> radix(arg, 8);
      case 'x' -> hex(arg, false);
      case 'X' -> hex(arg, true);
      default ->
          throw new CelEvaluationException(
              "could not parse formatting clause: unrecognized formatting clause \"" + verb + "\"");
    };
  }

  private static String asString(Object v, boolean nested) {
    return switch (v) {
      case String s -> nested ? GoFormat.quote(s) : s;
      case Double d -> formatDouble(d);
      case UnsignedLong u -> u.toString();
      case CelByteString b -> new String(b.toByteArray(), StandardCharsets.UTF_8);
      case NullValue n -> "null";
      case List<?> l -> {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < l.size(); i++) {
          b.append(i == 0 ? "" : ", ").append(asString(l.get(i), true));
        }
        yield b.append(']').toString();
      }
      case Map<?, ?> m -> {
        StringBuilder b = new StringBuilder("{");
        m.entrySet().stream()
            .map(e -> asString(e.getKey(), true) + ": " + asString(e.getValue(), true))
            .sorted()
            .forEach(s -> b.append(b.length() == 1 ? "" : ", ").append(s));
        yield b.append('}').toString();
      }
      default -> String.valueOf(v);
    };
  }

  private static String formatDouble(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    BigDecimal b = new BigDecimal(Double.toString(d)).stripTrailingZeros();
    return b.scale() <= 0 && b.precision() - b.scale() <= 21
        ? b.toPlainString()
        : Double.toString(d).replace("E", "e+").replace("e+-", "e-");
  }

  private static String integer(Object v) throws CelEvaluationException {
    return switch (v) {
      case Long l -> Long.toString(l);
      case UnsignedLong u -> u.toString();
      case Double d when d == Math.rint(d) && !Double.isInfinite(d) ->
          new BigDecimal(d).toBigInteger().toString();
      default -> throw typeError("decimal", "integers", v);
    };
  }

  private static String fixed(Object v, int precision) throws CelEvaluationException {
    double d = toDouble(v, "fixed-point");
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return formatDouble(d);
    }
    return String.format(Locale.ROOT, "%." + precision + "f", d);
  }

  private static String scientific(Object v, int precision) throws CelEvaluationException {
    double d = toDouble(v, "scientific");
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return formatDouble(d);
    }
    String s = String.format(Locale.ROOT, "%." + precision + "e", d);
    return s;
  }

  private static double toDouble(Object v, String clause) throws CelEvaluationException {
    return switch (v) {
      case Double d -> d;
      case Long l -> l.doubleValue();
      case UnsignedLong u -> u.doubleValue();
      default -> throw typeError(clause, "doubles", v);
    };
  }

  private static String radix(Object v, int radix) throws CelEvaluationException {
    return switch (v) {
      case Long l -> Long.toString(l, radix);
      case UnsignedLong u -> u.toString(radix);
      case Boolean b when radix == 2 -> b ? "1" : "0";
      default ->
          throw new CelEvaluationException(
              radix == 2
                  ? "error during formatting: only integers and bools can be formatted as binary,"
                      + " was given "
                      + ValueTypes.typeName(v)
                  : "error during formatting: octal clause can only be used on integers, was given "
                      + ValueTypes.typeName(v));
    };
  }

  private static String hex(Object v, boolean upper) throws CelEvaluationException {
    String s =
        switch (v) {
          case Long l -> Long.toString(l, 16);
          case UnsignedLong u -> u.toString(16);
          case String str -> HexFormat.of().formatHex(str.getBytes(StandardCharsets.UTF_8));
          case CelByteString b -> HexFormat.of().formatHex(b.toByteArray());
          default ->
              throw new CelEvaluationException(
                  "error during formatting: only integers, byte buffers, and strings can be"
                      + " formatted as hex, was given "
                      + ValueTypes.typeName(v));
        };
    return upper ? s.toUpperCase(Locale.ROOT) : s;
  }

  private static CelEvaluationException typeError(String clause, String allowed, Object v) {
    return new CelEvaluationException(
        "error during formatting: "
            + clause
            + " clause can only be used on "
            + allowed
            + ", was given "
            + ValueTypes.typeName(v));
  }
}
