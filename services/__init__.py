"""The platform's services: the engine gRPC service, the match store on Redis, the Celery
app with its bot and timer tasks.

Imports stay light here: importing :mod:`services` loads neither gRPC nor Redis.
"""
