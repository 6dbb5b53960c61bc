// Runs the core's own tests (tests/rules) under Pyodide in Node: the same CPython the phones
// run (3.14 in WebAssembly), the same ledger/rules files, the same pytest. Run by
// tests/pyodide/test_rules_under_pyodide.py; by hand:
//   node tests/pyodide/run_rules.mjs SITE_PACKAGES WHEELS [pytest arguments...]
// SITE_PACKAGES is the venv's site-packages: pytest, pluggy, iniconfig, packaging, pygments,
// hypothesis, attrs and sortedcontainers are pure Python, installed there from the hashed
// requirements-dev.txt, and imported from it as they are, except hypothesis: the venv's has a
// compiled part since 6.156, so WHEELS (.cache/pyodide-wheels, filled by scripts/bootstrap
// from the hashed requirements-pyodide.txt) brings its last pure-Python wheel, imported from
// the wheel file itself. Nothing is written into the mounted folders (no bytecode).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const [sitePackages, wheels, ...args] = process.argv.slice(2);
if (!sitePackages || !wheels) {
  console.error("usage: node tests/pyodide/run_rules.mjs SITE_PACKAGES WHEELS [pytest arguments]");
  process.exit(2);
}
const py = await loadPyodide();
// Python's own writes as they come (pytest's progress dots are not lines).
const writer = (stream) => ({ write: (bytes) => { stream.write(bytes); return bytes.length; } });
py.setStdout(writer(process.stdout));
py.setStderr(writer(process.stderr));
py.FS.mkdirTree("/repo");
py.FS.mkdirTree("/site");
py.FS.mkdirTree("/wheels");
py.FS.mount(py.FS.filesystems.NODEFS, { root: path.resolve(wheels) }, "/wheels");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root: path.resolve(sitePackages) }, "/site");
py.globals.set("pytest_args", py.toPy(args));
let code;
try {
  code = await py.runPythonAsync(`
import os, sys
sys.dont_write_bytecode = True
# Only the plugins named here: the venv also holds Django's, xdist's and Playwright's.
os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
sys.path[:0] = ["/repo", *sorted(f"/wheels/{name}" for name in os.listdir("/wheels")
                                 if name.endswith(".whl")), "/site"]
os.chdir("/repo")
import pytest
print("python", sys.version.split()[0], "pytest", pytest.__version__, flush=True)
int(pytest.main(["-p", "no:cacheprovider", "-p", "hypothesis.extra.pytestplugin",
                 "--noconftest", "-o", "addopts=", *pytest_args]))
`);
} catch (error) {
  // A Python exception: its traceback, not the minified runtime's source.
  console.error(String(error.message || error).slice(-6000));
  code = 3;
}
process.exit(code);
