package io.jdra.exampledriver;

import io.jdra.kubeletplugin.cdi.CdiNames;
import io.jdra.kubeletplugin.cdi.CdiSpec;
import io.jdra.kubeletplugin.cdi.CdiSpec.ContainerEdits;
import io.jdra.kubeletplugin.cdi.CdiWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The driver's CDI specs (upstream cdi.go): vendor {@code k8s.<driver>}, class = profile name.
 *
 * <ul>
 *   <li>The common spec {@code k8s.<driver>-<class>_common.yaml}, device {@code common}: {@code
 *       KUBERNETES_NODE_NAME} and {@code DRA_RESOURCE_DRIVER_NAME}.
 *   <li>One spec per claim, {@code k8s.<driver>-<class>_<claimUID>.yaml}, device {@code
 *       <claimUID>-<device>[-<shareID>]} per prepared device: {@code
 *       <CLASS>_DEVICE_<DEVICE>_RESOURCE_CLAIM=<claimUID>}, {@code DRA_ADMIN_ACCESS} and the
 *       profile's edits.
 * </ul>
 *
 * Every prepared device gets two CDI IDs: the common device and its own.
 */
final class CdiHandler {
  static final String COMMON_DEVICE = "common";
  private static final Pattern NON_WORD = Pattern.compile("[^a-zA-Z0-9]+");

  private final CdiWriter writer;
  private final String driverName;
  private final String clazz;

  CdiHandler(Path root, String driverName, String clazz) {
    this.writer = new CdiWriter(root);
    this.driverName = driverName;
    this.clazz = clazz;
  }

  String vendor() {
    return "k8s." + driverName;
  }

  String kind() {
    return vendor() + "/" + clazz;
  }

  void createCommonSpecFile(String nodeName) {
    CdiSpec spec =
        CdiSpec.of(
            kind(),
            List.of(
                new CdiSpec.Device(
                    COMMON_DEVICE,
                    ContainerEdits.env(
                        List.of(
                            "KUBERNETES_NODE_NAME=" + nodeName,
                            "DRA_RESOURCE_DRIVER_NAME=" + driverName)))));
    writer.writeSpec(spec, CdiNames.transientSpecName(spec, COMMON_DEVICE));
  }

  /** A prepared device as the claim spec needs it. */
  record ClaimDevice(
      String deviceName, String cdiDeviceId, boolean adminAccess, ContainerEdits edits) {}

  Path createClaimSpecFile(String claimUid, List<ClaimDevice> devices) {
    List<CdiSpec.Device> specDevices = new ArrayList<>();
    for (ClaimDevice d : devices) {
      String envKey = NON_WORD.matcher(d.deviceName()).replaceAll("_").toUpperCase(Locale.ROOT);
      ContainerEdits edits =
          ContainerEdits.env(
                  List.of(
                      clazz.toUpperCase(Locale.ROOT)
                          + "_DEVICE_"
                          + envKey
                          + "_RESOURCE_CLAIM="
                          + claimUid,
                      "DRA_ADMIN_ACCESS=" + d.adminAccess()))
              .append(d.edits());
      specDevices.add(new CdiSpec.Device(claimUid + "-" + d.cdiDeviceId(), edits));
    }
    return writer.writeSpec(
        CdiSpec.of(kind(), specDevices), CdiNames.transientSpecName(vendor(), clazz, claimUid));
  }

  boolean claimSpecExists(String claimUid) {
    return java.nio.file.Files.exists(
        writer.dir().resolve(CdiNames.transientSpecName(vendor(), clazz, claimUid) + ".yaml"));
  }

  void deleteClaimSpecFile(String claimUid) {
    writer.removeSpec(CdiNames.transientSpecName(vendor(), clazz, claimUid));
  }

  /** The common device plus the claim's device, fully qualified. */
  List<String> claimDeviceIds(String claimUid, String cdiDeviceId) {
    return List.of(
        CdiNames.qualifiedName(vendor(), clazz, COMMON_DEVICE),
        CdiNames.qualifiedName(vendor(), clazz, claimUid + "-" + cdiDeviceId));
  }
}
