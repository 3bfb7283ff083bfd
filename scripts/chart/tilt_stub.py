"""Runs a Tiltfile under a stub of the Tilt API it uses and prints, as JSON, what it would build
(image ref and Dockerfile target), the charts it renders with which values files, the resources it
configures and the local files it deploys. Starlark is close enough to Python for a Tiltfile that
sticks to the core API; any other Tilt call fails the run (NameError)."""
import json
import os
import sys

recorded = {"builds": [], "helm": [], "resources": [], "yaml": [], "local_resources": []}


def fail(message):
    raise SystemExit("Tiltfile: " + message)


def docker_build(ref, context, target="", dockerfile="Dockerfile", live_update=None, entrypoint=None, **_):
    if not os.path.isfile(os.path.join(context, dockerfile)):
        fail("docker_build(%s): no %s in %s" % (ref, dockerfile, context))
    for step in live_update or []:
        if step[0] == "sync" and not os.path.exists(step[1]):
            fail("docker_build(%s): live_update syncs %s, which does not exist" % (ref, step[1]))
    recorded["builds"].append({"ref": ref, "target": target, "entrypoint": entrypoint})


def sync(local_path, remote_path):
    return ("sync", local_path, remote_path)


def fall_back_on(files):
    return ("fall_back_on", files)


def helm(path, name="", namespace="", values=None, set=None, **_):
    for f in [path] + list(values or []):
        if not os.path.exists(f):
            fail("helm(): %s does not exist" % f)
    recorded["helm"].append({"chart": path, "name": name, "values": list(values or []), "set": list(set or [])})
    return ("helm", path)


def k8s_yaml(source, **_):
    if isinstance(source, str):
        if not os.path.exists(source):
            fail("k8s_yaml(%s): no such file" % source)
        recorded["yaml"].append(source)


def k8s_resource(workload, port_forwards=None, labels=None, **_):
    recorded["resources"].append({"workload": workload, "port_forwards": port_forwards, "labels": labels or []})


def local_resource(name, cmd="", labels=None, **_):
    recorded["local_resources"].append({"name": name, "cmd": cmd, "labels": labels or []})


def local(cmd, **_):
    return ""  # commands are not run under the stub


def allow_k8s_contexts(contexts):
    pass


TRIGGER_MODE_MANUAL = "manual"
TRIGGER_MODE_AUTO = "auto"

api = {name: value for name, value in dict(globals()).items() if not name.startswith("_")}
api.update({"os": os, "print": print})
del api["recorded"], api["json"], api["sys"], api["fail"]

with open(sys.argv[1]) as source:
    code = compile(source.read(), sys.argv[1], "exec")
exec(code, {"__builtins__": {"len": len, "list": list, "str": str, "range": range, "dict": dict, "isinstance": isinstance}, **api})
print(json.dumps(recorded))
