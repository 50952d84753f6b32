package io.jdra.kubeletplugin.cdi;

import java.util.regex.Pattern;

/**
 * CDI naming rules, as the CDI library (tags.cncf.io/container-device-interface) applies them:
 * qualified device names, spec file names, and the minimum spec version a spec's content needs.
 */
public final class CdiNames {
  private static final Pattern VENDOR = Pattern.compile("[A-Za-z]([A-Za-z0-9_.-]*[A-Za-z0-9])?");
  private static final Pattern CLASS = Pattern.compile("[A-Za-z]([A-Za-z0-9_.-]*[A-Za-z0-9])?");
  private static final Pattern DEVICE =
      Pattern.compile("[A-Za-z0-9]([A-Za-z0-9_.:-]*[A-Za-z0-9])?");

  private CdiNames() {}

  /** {@code vendor/class=name}, what the kubelet hands to the runtime. */
  public static String qualifiedName(String vendor, String clazz, String name) {
    return vendor + "/" + clazz + "=" + name;
  }

  /** {@code vendor-class}: the CDI library's name for a vendor's spec file of a class. */
  public static String specName(String vendor, String clazz) {
    return vendor + "-" + clazz;
  }

  /**
   * {@code vendor-class_id}: the name of a spec file that exists only for a while, for example per
   * claim (the id is then the claim UID, so two claims never share a file).
   */
  public static String transientSpecName(String vendor, String clazz, String transientId) {
    return specName(vendor, clazz) + "_" + transientId;
  }

  /** The transient spec name for {@code spec}'s kind. */
  public static String transientSpecName(CdiSpec spec, String transientId) {
    String[] vc = splitKind(spec.kind());
    return transientSpecName(vc[0], vc[1], transientId);
  }

  /** [vendor, class] of a kind; throws IllegalArgumentException naming what is wrong. */
  public static String[] splitKind(String kind) {
    int slash = kind.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("CDI kind " + quote(kind) + ": want vendor/class");
    }
    String vendor = kind.substring(0, slash);
    String clazz = kind.substring(slash + 1);
    if (!VENDOR.matcher(vendor).matches()) {
      throw new IllegalArgumentException(
          "CDI kind "
              + quote(kind)
              + ": invalid vendor "
              + quote(vendor)
              + " (letters, digits, '-', '_', '.'; starts with a letter, ends with a letter or digit)");
    }
    if (!CLASS.matcher(clazz).matches()) {
      throw new IllegalArgumentException(
          "CDI kind "
              + quote(kind)
              + ": invalid class "
              + quote(clazz)
              + " (letters, digits, '-', '_', '.'; starts with a letter, ends with a letter or digit)");
    }
    return new String[] {vendor, clazz};
  }

  /** Throws IllegalArgumentException when {@code name} is not a valid CDI device name. */
  public static void validateDeviceName(String name) {
    if (!DEVICE.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "CDI device name "
              + quote(name)
              + ": letters, digits, '-', '_', '.', ':'; starts and ends with a letter or digit");
    }
  }

  /**
   * The lowest spec version that can hold {@code spec}: runtimes reject versions they do not know,
   * so a spec claims only what it uses (the CDI library's MinimumRequiredVersion, for the fields
   * this writer supports).
   */
  public static String minimumVersion(CdiSpec spec) {
    String[] vc = splitKind(spec.kind());
    if (vc[1].contains(".")) {
      return "0.6.0";
    }
    boolean hostPath = hasHostPath(spec.containerEdits());
    boolean digitName = false;
    boolean mountType = hasMountType(spec.containerEdits());
    for (CdiSpec.Device d : spec.devices()) {
      digitName |= !d.name().isEmpty() && Character.isDigit(d.name().charAt(0));
      hostPath |= hasHostPath(d.containerEdits());
      mountType |= hasMountType(d.containerEdits());
    }
    if (digitName || hostPath) {
      return "0.5.0";
    }
    return mountType ? "0.4.0" : "0.3.0";
  }

  private static boolean hasHostPath(CdiSpec.ContainerEdits e) {
    return e.deviceNodes().stream().anyMatch(n -> n.hostPath() != null && !n.hostPath().isEmpty());
  }

  private static boolean hasMountType(CdiSpec.ContainerEdits e) {
    return e.mounts().stream().anyMatch(m -> m.type() != null && !m.type().isEmpty());
  }

  static String quote(String s) {
    return "\"" + s + "\"";
  }
}
