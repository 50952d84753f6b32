package io.jdra.controllers.devicetainteviction;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRuleBuilder;
import io.jdra.testing.objects.Make;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The objects of the controller's test tables, named as in upstream's test. */
final class Fixtures {
  private Fixtures() {}

  static final Instant TAINT_TIME = Instant.parse("2026-01-01T00:00:00Z");
  static final String NODE = "worker";
  static final String DRIVER = "some-driver";
  static final String NS = "default";
  static final String POD = "my-pod";
  static final String POD_UID = "1234";
  static final String CLAIM = "my-pod-my-resource";
  static final String KEY = "example.com/taint";
  static final String VALUE = "something";
  static final Duration TOLERATION = Duration.ofHours(1);

  static DeviceTaint taint(String effect) {
    return new DeviceTaint(effect, KEY, TAINT_TIME.toString(), VALUE);
  }

  static Device device(String name, DeviceTaint... taints) {
    return new DeviceBuilder().withName(name).withTaints(List.of(taints)).build();
  }

  /** Three devices: untainted, NoSchedule, None + NoExecute (upstream's {@code slice}). */
  static final ResourceSlice SLICE =
      Make.slice("slice", NODE, DRIVER)
          .devices(
              device("instance"),
              device("instance-no-schedule", taint("NoSchedule")),
              device("instance-no-execute", taint("None"), taint("NoExecute")))
          .obj();

  static ResourceSlice withInstanceTaints(ResourceSlice slice, DeviceTaint... taints) {
    ResourceSlice s = new ResourceSliceBuilder(slice).build();
    s.getSpec().getDevices().set(0, device("instance", taints));
    return s;
  }

  static final ResourceSlice SLICE_TAINTED = withInstanceTaints(SLICE, taint("NoExecute"));
  static final ResourceSlice SLICE_TAINTED_NO_SCHEDULE =
      withInstanceTaints(SLICE, taint("NoSchedule"));
  static final ResourceSlice SLICE_TAINTED_NONE = withInstanceTaints(SLICE, taint("None"));

  /** The same pool, one generation later, under another name, without taints. */
  static final ResourceSlice SLICE_NEXT_GENERATION =
      new ResourceSliceBuilder(withInstanceTaints(SLICE))
          .editMetadata()
          .withName("slice-updated")
          .endMetadata()
          .editSpec()
          .editPool()
          .withGeneration(2L)
          .endPool()
          .endSpec()
          .build();

  static Pod pod(String ns, String name, String uid) {
    return Make.pod(name).namespace(ns).uid(uid).nodeName(NODE).claim("my-resource", CLAIM).obj();
  }

  static final Pod POD_WITH_CLAIM = pod(NS, POD, POD_UID);
  static final Pod POD_UNSCHEDULED =
      new PodBuilder(POD_WITH_CLAIM).editSpec().withNodeName(null).endSpec().build();

  /** A pod that gets its claim through a DRA-backed extended resource (upstream #141290). */
  static final Pod POD_EXTENDED =
      new PodBuilder(Make.pod(POD).namespace(NS).uid(POD_UID).nodeName(NODE).obj())
          .editOrNewStatus()
          .withNewExtendedResourceClaimStatus()
          .withResourceClaimName(CLAIM)
          .endExtendedResourceClaimStatus()
          .endStatus()
          .build();

  static ResourceClaim claim(String ns, String name, String podName, String podUid) {
    return Make.claim(name)
        .namespace(ns)
        .uid("claim-" + name)
        .ownerPod(podName, podUid)
        .request("my-class")
        .allocatedOn(NODE, DRIVER, "instance")
        .reservedForPod(podName, podUid)
        .obj();
  }

  static final ResourceClaim IN_USE_CLAIM = claim(NS, CLAIM, POD, POD_UID);

  static ResourceClaim withTolerations(ResourceClaim claim, DeviceToleration... tolerations) {
    ResourceClaim c = new ResourceClaimBuilder(claim).build();
    c.getStatus()
        .getAllocation()
        .getDevices()
        .getResults()
        .forEach(r -> r.setTolerations(List.of(tolerations)));
    return c;
  }

  static DeviceToleration toleration(Long seconds) {
    return new DeviceTolerationBuilder()
        .withKey(KEY)
        .withOperator("Equal")
        .withValue(VALUE)
        .withEffect("NoExecute")
        .withTolerationSeconds(seconds)
        .build();
  }

  static final ResourceClaim IN_USE_CLAIM_TOLERATING =
      withTolerations(IN_USE_CLAIM, toleration(TOLERATION.toSeconds()));
  static final ResourceClaim IN_USE_CLAIM_TOLERATING_FOREVER =
      withTolerations(IN_USE_CLAIM, toleration(null));

  static DeviceTaintRule rule(String name, String uid, String effect, String device) {
    return new DeviceTaintRuleBuilder()
        .withNewMetadata()
        .withName(name)
        .withUid(uid)
        .withGeneration(1L)
        .endMetadata()
        .withNewSpec()
        .withNewDeviceSelector()
        .withDriver(DRIVER)
        .withDevice(device)
        .endDeviceSelector()
        .withNewTaint()
        .withKey(KEY)
        .withValue(VALUE)
        .withEffect(effect)
        .withTimeAdded(TAINT_TIME.toString())
        .endTaint()
        .endSpec()
        .build();
  }

  static final DeviceTaintRule RULE_EVICT = rule("evict", "rule-1", "NoExecute", null);
  static final DeviceTaintRule RULE_NONE = rule("evict", "rule-1", "None", null);
}
