// Cold start of the framework: import toolkit's entry point (as an app's first line does).
await import('toolkit');
process.stdout.write('ok\n');
