package io.jdra.kubeletplugin.guide;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.kubeletplugin.DraPlugin;
import io.jdra.kubeletplugin.Helper;
import io.jdra.kubeletplugin.KubeletPlugin;
import io.jdra.kubeletplugin.NamespacedObject;
import io.jdra.kubeletplugin.Options;
import io.jdra.kubeletplugin.PrepareResult;
import io.jdra.kubeletplugin.cdi.CdiNames;
import io.jdra.kubeletplugin.cdi.CdiSpec;
import io.jdra.kubeletplugin.cdi.CdiWriter;
import io.jdra.kubeletplugin.resourceslice.DriverResources;
import io.jdra.kubeletplugin.resourceslice.Pool;
import io.jdra.kubeletplugin.resourceslice.Slice;
import io.jdra.runtime.Ctx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The driver of docs/DRIVER-GUIDE.md: one device per node, prepared by writing a CDI spec that sets
 * an environment variable. Stateless, so prepare is idempotent by construction.
 */
public final class MinimalDriver implements DraPlugin {
  static final String DRIVER = "minimal.example.com";
  private final CdiWriter cdi;

  private MinimalDriver(Path cdiRoot) {
    this.cdi = new CdiWriter(cdiRoot);
  }

  public static Helper start(
      Ctx ctx, KubernetesClient client, String node, Path cdiRoot, Path registry, Path plugins) {
    Options options =
        Options.builder(DRIVER)
            .kubeClient(client)
            .nodeName(node)
            .registrarDirectoryPath(registry)
            .pluginDataDirectoryPath(plugins.resolve(DRIVER))
            .build();
    Helper helper = KubeletPlugin.start(ctx, new MinimalDriver(cdiRoot), options);
    Device device = new Device();
    device.setName("dev-0");
    helper.publishResources(
        DriverResources.ofNodePool(node, Pool.of(List.of(Slice.of(List.of(device))))));
    return helper;
  }

  @Override
  public Map<String, PrepareResult> prepareResourceClaims(Ctx ctx, List<ResourceClaim> claims) {
    Map<String, PrepareResult> results = new HashMap<>();
    for (ResourceClaim claim : claims) {
      String uid = claim.getMetadata().getUid();
      List<CdiSpec.Device> specDevices = new ArrayList<>();
      List<io.jdra.kubeletplugin.Device> prepared = new ArrayList<>();
      for (DeviceRequestAllocationResult r :
          claim.getStatus().getAllocation().getDevices().getResults()) {
        String name = uid + "-" + r.getDevice(); // CDI names carry the claim UID
        specDevices.add(
            new CdiSpec.Device(
                name, CdiSpec.ContainerEdits.env(List.of("MINIMAL_DEVICE=" + r.getDevice()))));
        String id = CdiNames.qualifiedName("k8s." + DRIVER, "dev", name);
        prepared.add(
            new io.jdra.kubeletplugin.Device(
                List.of(r.getRequest()), r.getPool(), r.getDevice(), List.of(id), null));
      }
      try {
        cdi.writeSpec(
            CdiSpec.of("k8s." + DRIVER + "/dev", specDevices),
            CdiNames.transientSpecName("k8s." + DRIVER, "dev", uid));
        results.put(uid, PrepareResult.ok(prepared));
      } catch (RuntimeException e) {
        results.put(uid, PrepareResult.failed(e));
      }
    }
    return results;
  }

  @Override
  public Map<String, Throwable> unprepareResourceClaims(Ctx ctx, List<NamespacedObject> claims) {
    Map<String, Throwable> results = new HashMap<>();
    for (NamespacedObject claim : claims) {
      try {
        cdi.removeSpec(CdiNames.transientSpecName("k8s." + DRIVER, "dev", claim.uid()));
        results.put(claim.uid(), null);
      } catch (RuntimeException e) {
        results.put(claim.uid(), e);
      }
    }
    return results;
  }
}
